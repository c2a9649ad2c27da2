-- created_at entered production out of band; a rebuild adds it here. Set once, on create.
ALTER TABLE directory ADD COLUMN created_at TEXT;
