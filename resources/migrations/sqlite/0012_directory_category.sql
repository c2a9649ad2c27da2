-- Grouping and ordering (production 0012_directory_category.sql).
ALTER TABLE directory ADD COLUMN category TEXT;
ALTER TABLE directory ADD COLUMN allowed_categories TEXT;
ALTER TABLE directory ADD COLUMN seq INTEGER;
