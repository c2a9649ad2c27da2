-- Receipts grow without end, so old ones can move out of the directory into a signed segment file
-- (`capdeskctl receipts archive`). The only delete a receipt or its chain link ever gets is
-- that move: an archive's signed seal (the segment file's last line, kept here as well)
-- names, per writer, the stretch of its chain the file holds and the hash it ends in, and a
-- row may be deleted only when such a stretch covers it. The audit checks each seal's
-- signature and picks each chain up where its archived stretch ends.

CREATE TABLE receipt_archives (
  id INTEGER PRIMARY KEY,
  made_at TEXT NOT NULL,
  started_before TEXT NOT NULL,
  receipt_count INTEGER NOT NULL,
  seal_json TEXT NOT NULL,
  signature TEXT NOT NULL
);

CREATE TABLE receipt_archive_ranges (
  archive_id INTEGER NOT NULL REFERENCES receipt_archives (id),
  writer TEXT NOT NULL,
  from_seq INTEGER NOT NULL,
  through_seq INTEGER NOT NULL,
  through_hash TEXT NOT NULL UNIQUE, -- a link's hash names its writer and seq: also how a copy pages
  PRIMARY KEY (writer, through_seq),
  CHECK (from_seq >= 1 AND through_seq >= from_seq)
);

CREATE TRIGGER receipt_archives_refuse_update BEFORE UPDATE ON receipt_archives
BEGIN
  SELECT RAISE(ABORT, 'receipt archives are append-only');
END;
CREATE TRIGGER receipt_archives_refuse_delete BEFORE DELETE ON receipt_archives
BEGIN
  SELECT RAISE(ABORT, 'receipt archives are append-only');
END;
CREATE TRIGGER receipt_archive_ranges_refuse_update BEFORE UPDATE ON receipt_archive_ranges
BEGIN
  SELECT RAISE(ABORT, 'receipt archives are append-only');
END;
CREATE TRIGGER receipt_archive_ranges_refuse_delete BEFORE DELETE ON receipt_archive_ranges
BEGIN
  SELECT RAISE(ABORT, 'receipt archives are append-only');
END;

DROP TRIGGER receipts_refuse_delete;
CREATE TRIGGER receipts_refuse_delete BEFORE DELETE ON receipts
WHEN NOT EXISTS (
  SELECT 1 FROM receipt_chain_links l JOIN receipt_archive_ranges a
    ON a.writer = l.writer AND l.seq BETWEEN a.from_seq AND a.through_seq
  WHERE l.receipt_seq = OLD.seq)
BEGIN
  SELECT RAISE(ABORT, 'receipts are append-only: only an archived receipt is ever deleted');
END;

-- A link goes after its receipt, so the receipt is never left without one.
DROP TRIGGER receipt_chain_links_refuse_delete;
CREATE TRIGGER receipt_chain_links_refuse_delete BEFORE DELETE ON receipt_chain_links
WHEN NOT EXISTS (
  SELECT 1 FROM receipt_archive_ranges a
  WHERE a.writer = OLD.writer AND OLD.seq BETWEEN a.from_seq AND a.through_seq)
  OR EXISTS (SELECT 1 FROM receipts WHERE seq = OLD.receipt_seq)
BEGIN
  SELECT RAISE(ABORT, 'receipt chains are append-only: only an archived link is ever deleted');
END;
