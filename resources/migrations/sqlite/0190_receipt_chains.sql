-- Receipts in the directory file get hash chains of their own, one per writer (a
-- process's DirectoryLedger), so a receipt deleted or edited behind Capdesk's back (DROP
-- TRIGGER first) shows as a gap or a broken link. Writers never wait on one another's chain: each keeps its own head.
--
-- A link hashes {writer, seq, prev_hash, receipt_sha256}, receipt_sha256 being the
-- SHA-256 of the stored receipt_json. A writer's head is signed with the receipt key and
-- also records the event log's head when it was signed, so a wiped event log is seen
-- from any surviving head. RECEIPT_CHAIN_OPENED events name every writer, so a chain
-- removed whole is missed.

CREATE TABLE receipt_chain_links (
  receipt_seq INTEGER PRIMARY KEY, -- receipts.seq of the linked receipt
  writer TEXT NOT NULL,
  seq INTEGER NOT NULL,
  prev_hash TEXT NOT NULL,
  hash TEXT NOT NULL,
  UNIQUE (writer, seq)
);

CREATE TRIGGER receipt_chain_links_refuse_update BEFORE UPDATE ON receipt_chain_links
BEGIN
  SELECT RAISE(ABORT, 'receipt chains are append-only');
END;
CREATE TRIGGER receipt_chain_links_refuse_delete BEFORE DELETE ON receipt_chain_links
BEGIN
  SELECT RAISE(ABORT, 'receipt chains are append-only');
END;

CREATE TABLE receipt_chain_heads (
  writer TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  hash TEXT NOT NULL,
  events_seq INTEGER NOT NULL,
  events_hash TEXT NOT NULL,
  signed_at TEXT NOT NULL,
  signature TEXT NOT NULL
);

-- Receipts written before this migration carry no link. The first signing after it seals
-- them, in seq order, into the chain of the writer 'pre-chain'; until then a check
-- reports them as pre-chain, not as tampered.
CREATE TABLE receipt_chain_origin (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  pre_chain_through INTEGER NOT NULL
);
INSERT INTO receipt_chain_origin (id, pre_chain_through) SELECT 1, COALESCE(MAX(seq), 0) FROM receipts;
