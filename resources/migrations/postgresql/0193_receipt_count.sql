-- See SQLite migration 0193: the receipts a directory holds, counted as they are written
-- and archived rather than by a scan. Once per statement, so a COPY of millions is one
-- update. One row is enough: every Capdesk writer already takes the directory's advisory
-- lock for its receipt transactions. The function runs with the rights of whoever writes
-- receipts (no SECURITY DEFINER: a definer's function a serving role can reach with
-- triggers of its own would lend it the owner's rights), so that role may update the
-- count; the count is shown, never trusted.
CREATE TABLE receipt_count (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  receipts BIGINT NOT NULL
);
LOCK TABLE receipts IN SHARE ROW EXCLUSIVE MODE;
INSERT INTO receipt_count (id, receipts) SELECT 1, count(*) FROM receipts;

CREATE FUNCTION capdesk_count_receipts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE receipt_count SET receipts = receipts + (SELECT count(*) FROM written_receipts) WHERE id = 1;
  ELSE
    UPDATE receipt_count SET receipts = receipts - (SELECT count(*) FROM removed_receipts) WHERE id = 1;
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER receipt_count_insert AFTER INSERT ON receipts
  REFERENCING NEW TABLE AS written_receipts FOR EACH STATEMENT EXECUTE FUNCTION capdesk_count_receipts();
CREATE TRIGGER receipt_count_delete AFTER DELETE ON receipts
  REFERENCING OLD TABLE AS removed_receipts FOR EACH STATEMENT EXECUTE FUNCTION capdesk_count_receipts();

-- A role made before this migration that reads the receipts may read the count, and one
-- that writes or archives them keeps the count up.
DO $$
DECLARE
  grant_ RECORD;
BEGIN
  FOR grant_ IN SELECT DISTINCT grantee, privilege_type FROM information_schema.role_table_grants
                WHERE table_schema = current_schema() AND table_name = 'receipts'
                  AND privilege_type IN ('SELECT', 'INSERT', 'DELETE') AND grantee <> current_user LOOP
    EXECUTE format('GRANT %s ON receipt_count TO %s',
                   CASE grant_.privilege_type WHEN 'SELECT' THEN 'SELECT' ELSE 'UPDATE' END,
                   CASE grant_.grantee WHEN 'PUBLIC' THEN 'PUBLIC' ELSE quote_ident(grant_.grantee) END);
  END LOOP;
END;
$$;
