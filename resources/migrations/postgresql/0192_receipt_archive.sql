-- See SQLite migration 0192: archived receipts, the only delete a receipt in a directory ever gets.

CREATE TABLE receipt_archives (
  id BIGINT PRIMARY KEY,
  made_at TEXT NOT NULL,
  started_before TEXT NOT NULL,
  receipt_count BIGINT NOT NULL,
  seal_json TEXT NOT NULL,
  signature TEXT NOT NULL
);

CREATE TABLE receipt_archive_ranges (
  archive_id BIGINT NOT NULL REFERENCES receipt_archives (id),
  writer TEXT NOT NULL,
  from_seq BIGINT NOT NULL,
  through_seq BIGINT NOT NULL,
  through_hash TEXT NOT NULL UNIQUE, -- a link's hash names its writer and seq: also how a copy pages
  PRIMARY KEY (writer, through_seq),
  CHECK (from_seq >= 1 AND through_seq >= from_seq)
);

CREATE TRIGGER receipt_archives_refuse_change BEFORE UPDATE OR DELETE ON receipt_archives
  FOR EACH ROW EXECUTE FUNCTION capdesk_refuse_change('receipt archives are append-only');
CREATE TRIGGER receipt_archives_refuse_truncate BEFORE TRUNCATE ON receipt_archives
  FOR EACH STATEMENT EXECUTE FUNCTION capdesk_refuse_change('receipt archives are append-only');
CREATE TRIGGER receipt_archive_ranges_refuse_change BEFORE UPDATE OR DELETE ON receipt_archive_ranges
  FOR EACH ROW EXECUTE FUNCTION capdesk_refuse_change('receipt archives are append-only');
CREATE TRIGGER receipt_archive_ranges_refuse_truncate BEFORE TRUNCATE ON receipt_archive_ranges
  FOR EACH STATEMENT EXECUTE FUNCTION capdesk_refuse_change('receipt archives are append-only');

CREATE FUNCTION capdesk_refuse_unarchived_receipt() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM receipt_chain_links l JOIN receipt_archive_ranges a
               ON a.writer = l.writer AND l.seq BETWEEN a.from_seq AND a.through_seq
             WHERE l.receipt_seq = OLD.seq) THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'receipts are append-only: only an archived receipt is ever deleted'
    USING ERRCODE = 'restrict_violation';
END;
$$;

-- A link goes after its receipt, so the receipt is never left without one.
CREATE FUNCTION capdesk_refuse_unarchived_link() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM receipt_archive_ranges a
             WHERE a.writer = OLD.writer AND OLD.seq BETWEEN a.from_seq AND a.through_seq)
     AND NOT EXISTS (SELECT 1 FROM receipts WHERE seq = OLD.receipt_seq) THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'receipt chains are append-only: only an archived link is ever deleted'
    USING ERRCODE = 'restrict_violation';
END;
$$;

DROP TRIGGER receipts_refuse_update ON receipts;
CREATE TRIGGER receipts_refuse_update BEFORE UPDATE ON receipts
  FOR EACH ROW EXECUTE FUNCTION capdesk_refuse_change('receipts are append-only');
CREATE TRIGGER receipts_refuse_delete BEFORE DELETE ON receipts
  FOR EACH ROW EXECUTE FUNCTION capdesk_refuse_unarchived_receipt();

DROP TRIGGER receipt_chain_links_refuse_update ON receipt_chain_links;
CREATE TRIGGER receipt_chain_links_refuse_update BEFORE UPDATE ON receipt_chain_links
  FOR EACH ROW EXECUTE FUNCTION capdesk_refuse_change('receipt chains are append-only');
CREATE TRIGGER receipt_chain_links_refuse_delete BEFORE DELETE ON receipt_chain_links
  FOR EACH ROW EXECUTE FUNCTION capdesk_refuse_unarchived_link();
