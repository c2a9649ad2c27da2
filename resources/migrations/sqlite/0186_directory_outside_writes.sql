-- Row writes that bypass the event log (a tool editing the table with plain SQL) are
-- counted here, so the change feed can tell a directory change from a commit that only
-- added a receipt, and can see an edit the log never heard of. Capdesk's own write
-- transactions set `logging` while they run and clear it before they commit, so no other
-- connection ever sees it set; their row writes are DIRECTORY_MUTATE events instead.
-- `recorded` is how many of the counted writes a DIRECTORY_OUTSIDE_WRITE event has
-- reported. The triggers fire when the mark row is missing too (IS NOT 1).

CREATE TABLE directory_outside_writes (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  logging INTEGER NOT NULL DEFAULT 0,
  counted INTEGER NOT NULL DEFAULT 0,
  recorded INTEGER NOT NULL DEFAULT 0
);
INSERT INTO directory_outside_writes (id) VALUES (1);

CREATE TRIGGER directory_outside_insert AFTER INSERT ON directory
WHEN (SELECT logging FROM directory_outside_writes WHERE id = 1) IS NOT 1
BEGIN
  UPDATE directory_outside_writes SET counted = counted + 1 WHERE id = 1;
END;
CREATE TRIGGER directory_outside_update AFTER UPDATE ON directory
WHEN (SELECT logging FROM directory_outside_writes WHERE id = 1) IS NOT 1
BEGIN
  UPDATE directory_outside_writes SET counted = counted + 1 WHERE id = 1;
END;
CREATE TRIGGER directory_outside_delete AFTER DELETE ON directory
WHEN (SELECT logging FROM directory_outside_writes WHERE id = 1) IS NOT 1
BEGIN
  UPDATE directory_outside_writes SET counted = counted + 1 WHERE id = 1;
END;
