-- The engine's own records beside the directory (SPEC §6–§8): receipts, the hash-chained
-- event log, capability tokens and the public halves of the receipt-signing keys.
-- Receipts and events are append-only: triggers refuse UPDATE and DELETE, so not even a
-- bug in Capdesk can rewrite history through SQL. Neither references `directory`, so a
-- deleted row keeps its receipts and its events.

CREATE TABLE receipts (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  invocation_id TEXT NOT NULL UNIQUE,
  trace TEXT NOT NULL,
  key TEXT NOT NULL,
  parent TEXT,
  actor TEXT NOT NULL,
  runner TEXT NOT NULL,
  started_at TEXT NOT NULL,
  duration_ms INTEGER NOT NULL,
  material INTEGER NOT NULL,
  status TEXT NOT NULL,
  contract_fingerprint TEXT NOT NULL,
  -- The receipt exactly as signed, signature included: verification works from this
  -- text alone; the columns above exist to filter and sort.
  receipt_json TEXT NOT NULL
);
CREATE INDEX receipts_by_key ON receipts (key, seq);
CREATE INDEX receipts_by_trace ON receipts (trace);
CREATE INDEX receipts_by_parent ON receipts (parent);

CREATE TRIGGER receipts_refuse_update BEFORE UPDATE ON receipts
BEGIN
  SELECT RAISE(ABORT, 'receipts are append-only');
END;
CREATE TRIGGER receipts_refuse_delete BEFORE DELETE ON receipts
BEGIN
  SELECT RAISE(ABORT, 'receipts are append-only');
END;

CREATE TABLE events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL,
  action TEXT NOT NULL,
  key TEXT,
  actor TEXT NOT NULL,
  at TEXT NOT NULL,
  before_json TEXT,
  after_json TEXT,
  detail TEXT,
  prev_hash TEXT NOT NULL,
  hash TEXT NOT NULL
);
CREATE INDEX events_by_key ON events (key, seq);

CREATE TRIGGER events_refuse_update BEFORE UPDATE ON events
BEGIN
  SELECT RAISE(ABORT, 'the event log is append-only');
END;
CREATE TRIGGER events_refuse_delete BEFORE DELETE ON events
BEGIN
  SELECT RAISE(ABORT, 'the event log is append-only');
END;

-- The newest link, kept apart from the log so that removing the last events is
-- detectable too: the chain must end where the head says it does.
CREATE TABLE event_chain_head (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  seq INTEGER NOT NULL,
  hash TEXT NOT NULL
);

CREATE TABLE capability_tokens (
  id TEXT PRIMARY KEY,
  token_hash TEXT NOT NULL UNIQUE,
  label TEXT NOT NULL DEFAULT '',
  audience TEXT NOT NULL,
  owner_gate INTEGER NOT NULL DEFAULT 0,
  allowed_keys TEXT NOT NULL DEFAULT '',
  allowed_categories TEXT NOT NULL DEFAULT '',
  pinned_contract TEXT,
  risk_ceiling TEXT NOT NULL CHECK (risk_ceiling IN ('low', 'high')),
  fixed_body TEXT,
  payload_ceiling INTEGER,
  expires_at TEXT,
  revoked_at TEXT,
  created_at TEXT NOT NULL
);

CREATE TABLE signing_keys (
  key_id TEXT PRIMARY KEY,
  public_key_pem TEXT NOT NULL,
  created_at TEXT NOT NULL
);
