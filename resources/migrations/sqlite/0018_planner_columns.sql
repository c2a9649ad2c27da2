-- Planning and schema columns (production 0018_planner_columns.sql).
ALTER TABLE directory ADD COLUMN enabled INTEGER DEFAULT 1;
ALTER TABLE directory ADD COLUMN planner_visible INTEGER DEFAULT 1;
ALTER TABLE directory ADD COLUMN planner_rank INTEGER DEFAULT 100;
ALTER TABLE directory ADD COLUMN input_schema TEXT;
ALTER TABLE directory ADD COLUMN examples TEXT;
