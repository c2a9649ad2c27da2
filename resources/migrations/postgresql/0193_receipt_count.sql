-- See SQLite migration 0193: the receipts a directory holds, counted as they are written
-- and archived rather than by a scan. Each writing connection adds to the slot of its
-- backend, so two servers' receipt transactions never wait on one counter row; the total
-- is the sum of the 16 slots. Once per statement, so a COPY of millions is one update.
-- The function runs as the directory's owner: the serving role reads the count and
-- cannot change it (packaging/postgresql/serve-role.sql). The counter's schema is the
-- receipts table's, named outright, since a definer's function trusts no search_path.
CREATE TABLE receipt_count (
  slot INTEGER PRIMARY KEY CHECK (slot BETWEEN 0 AND 15),
  receipts BIGINT NOT NULL
);
INSERT INTO receipt_count (slot, receipts) SELECT 0, count(*) FROM receipts;

CREATE FUNCTION capdesk_count_receipts() RETURNS trigger LANGUAGE plpgsql
  SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  changed BIGINT;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT count(*) INTO changed FROM written_receipts;
  ELSE
    SELECT -count(*) INTO changed FROM removed_receipts;
  END IF;
  IF changed <> 0 THEN
    EXECUTE format('INSERT INTO %I.receipt_count AS c (slot, receipts) VALUES ($1, $2) '
                   'ON CONFLICT (slot) DO UPDATE SET receipts = c.receipts + excluded.receipts',
                   TG_TABLE_SCHEMA)
      USING pg_backend_pid() % 16, changed;
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER receipt_count_insert AFTER INSERT ON receipts
  REFERENCING NEW TABLE AS written_receipts FOR EACH STATEMENT EXECUTE FUNCTION capdesk_count_receipts();
CREATE TRIGGER receipt_count_delete AFTER DELETE ON receipts
  REFERENCING OLD TABLE AS removed_receipts FOR EACH STATEMENT EXECUTE FUNCTION capdesk_count_receipts();

-- Whoever may read the receipts may read their count: a serving role made before this
-- migration keeps a Receipts dock that opens.
DO $$
DECLARE
  reader RECORD;
BEGIN
  FOR reader IN SELECT DISTINCT grantee FROM information_schema.role_table_grants
                WHERE table_schema = current_schema() AND table_name = 'receipts'
                  AND privilege_type = 'SELECT' AND grantee <> current_user LOOP
    EXECUTE CASE WHEN reader.grantee = 'PUBLIC' THEN 'GRANT SELECT ON receipt_count TO PUBLIC'
                 ELSE format('GRANT SELECT ON receipt_count TO %I', reader.grantee) END;
  END LOOP;
END;
$$;
