-- See SQLite migration 0194: a key's signed statement of the keys it follows.
ALTER TABLE signing_keys ADD COLUMN succession TEXT;
