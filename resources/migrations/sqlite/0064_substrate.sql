-- Which substrate runs the row (production 0064_substrate.sql).
ALTER TABLE directory ADD COLUMN runner TEXT;
