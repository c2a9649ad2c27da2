-- Risk: sensitive = 1 means high (production 0118_add_directory_sensitive.sql).
ALTER TABLE directory ADD COLUMN sensitive INTEGER DEFAULT 0;
