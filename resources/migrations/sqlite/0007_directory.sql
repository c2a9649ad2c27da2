-- The original table: six columns (production migrations/0007_directory.sql).
CREATE TABLE IF NOT EXISTS directory (
  key        TEXT PRIMARY KEY,
  type       TEXT NOT NULL CHECK (type IN ('fn','http','agent','flow')),
  target     TEXT,
  auth       TEXT,
  content    TEXT,
  updated_at TEXT NOT NULL
);
