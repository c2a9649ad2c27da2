-- The Receipts dock shows how many receipts a directory holds. Counting them is a scan of
-- the whole log, which grows without end (10,000,000 receipts: 0.15 s in a file, several
-- seconds and every core on PostgreSQL), so the count is kept as receipts are written and
-- archived. Without its row (a file an outside tool edited) the receipts are counted
-- instead (see ReceiptSummaryReader::total).
CREATE TABLE receipt_count (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  receipts INTEGER NOT NULL
);
INSERT INTO receipt_count (id, receipts) SELECT 1, count(*) FROM receipts;

CREATE TRIGGER receipt_count_insert AFTER INSERT ON receipts
BEGIN
  UPDATE receipt_count SET receipts = receipts + 1 WHERE id = 1;
END;
CREATE TRIGGER receipt_count_delete AFTER DELETE ON receipts
BEGIN
  UPDATE receipt_count SET receipts = receipts - 1 WHERE id = 1;
END;
