-- The role `capdeskctl serve` connects as, on a PostgreSQL directory that another role
-- owns (run `capdeskctl init --db postgresql://OWNER@…` first, as that owner, so that the
-- owner holds the tables and runs every migration). The serving role may read and write
-- rows, but may only INSERT and SELECT the history: receipts, their chains and the event
-- log. It owns nothing, so it cannot DISABLE TRIGGER, DROP, ALTER or TRUNCATE either.
-- Run as the owner, in the directory's database:  psql -d DB -f serve-role.sql
-- then give the role a password (ALTER ROLE capdesk_serve PASSWORD …, kept in ~/.pgpass
-- or the keychain of the machine that serves), or let pg_hba.conf authenticate it.

CREATE ROLE capdesk_serve LOGIN;
GRANT SELECT ON schema_migrations, receipt_archives, receipt_archive_ranges TO capdesk_serve;
GRANT SELECT, INSERT, UPDATE, DELETE ON directory TO capdesk_serve;
GRANT SELECT, INSERT ON receipts, events, receipt_chain_links TO capdesk_serve;
GRANT SELECT, INSERT, UPDATE ON event_chain_head, events_seq_issued, receipt_chain_heads,
  receipt_chain_origin, directory_outside_writes, capability_tokens, signing_keys TO capdesk_serve;
-- The receipt count its triggers keep as it writes receipts (migration 0193).
GRANT SELECT, UPDATE ON receipt_count TO capdesk_serve;
GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO capdesk_serve;
