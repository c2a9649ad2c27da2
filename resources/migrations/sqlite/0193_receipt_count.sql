-- The Receipts dock shows how many receipts a directory holds. Counting them is a scan of
-- the whole log, which grows without end (10,000,000 receipts: 0.15 s in a file, several
-- seconds and every core on PostgreSQL), so the count is kept as receipts are written and
-- archived. PostgreSQL spreads it over slots, one per writing connection's slot; a file
-- has one writer and uses slot 0. A missing row is read as "count them" (see
-- ReceiptSummaryReader::total).
CREATE TABLE receipt_count (
  slot INTEGER PRIMARY KEY CHECK (slot BETWEEN 0 AND 15),
  receipts INTEGER NOT NULL
);
INSERT INTO receipt_count (slot, receipts) SELECT 0, count(*) FROM receipts;

CREATE TRIGGER receipt_count_insert AFTER INSERT ON receipts
BEGIN
  UPDATE receipt_count SET receipts = receipts + 1 WHERE slot = 0;
END;
CREATE TRIGGER receipt_count_delete AFTER DELETE ON receipts
BEGIN
  UPDATE receipt_count SET receipts = receipts - 1 WHERE slot = 0;
END;
