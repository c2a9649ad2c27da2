-- The receipts viewer pages a directory's log of tens of millions of receipts from the
-- database instead of holding it. Its status and caller filters, and the lists of statuses and
-- callers it offers, each become an index probe with these.
CREATE INDEX receipts_by_status ON receipts (status, seq);
CREATE INDEX receipts_by_actor ON receipts (actor, seq);
