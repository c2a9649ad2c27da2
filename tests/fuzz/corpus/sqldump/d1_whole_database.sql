PRAGMA defer_foreign_keys=TRUE;
CREATE TABLE d1_migrations(
		id         INTEGER PRIMARY KEY AUTOINCREMENT,
		name       TEXT UNIQUE,
		applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
);
INSERT INTO "d1_migrations" ("id","name","applied_at") VALUES(1,'0007_directory.sql','2025-11-02 18:04:11');
INSERT INTO "d1_migrations" ("id","name","applied_at") VALUES(2,'0012_directory_category.sql','2025-11-09 09:12:40');
INSERT INTO "d1_migrations" ("id","name","applied_at") VALUES(3,'0183_prompt_blocks.sql','2026-05-30 21:55:02');
CREATE TABLE directory (
  key        TEXT PRIMARY KEY,
  type       TEXT NOT NULL CHECK (type IN ('fn','http','agent','flow')),
  target     TEXT,
  auth       TEXT,
  content    TEXT,
  updated_at TEXT NOT NULL
, category TEXT, allowed_categories TEXT, seq INTEGER, enabled INTEGER DEFAULT 1,
  planner_visible INTEGER DEFAULT 1, planner_rank INTEGER DEFAULT 100,
  input_schema TEXT, examples TEXT, sensitive INTEGER DEFAULT 0, runner TEXT,
  includes TEXT, created_at TEXT);
INSERT INTO "directory" ("key","type","target","auth","content","updated_at","category","allowed_categories","seq","enabled","planner_visible","planner_rank","input_schema","examples","sensitive","runner","includes","created_at") VALUES('SHOUT','fn','upper',NULL,'# WHAT: Upper-cases the text it is given.
# WHEN_TO_USE: a caller needs the text in capitals.
# ARGS: $1=text
# EX: [SHOUT]hello[/SHOUT]
# OUTPUT: the text in capitals','2026-07-26T04:36:19.832Z','text',NULL,1,1,1,100,NULL,NULL,0,'edge',NULL,'2026-07-20T10:00:00.000Z');
INSERT INTO "directory" ("key","type","target","auth","content","updated_at","category","allowed_categories","seq","enabled","planner_visible","planner_rank","input_schema","examples","sensitive","runner","includes","created_at") VALUES('ZZ_TEST_TEMPERATURE','http','GET https://api.open-meteo.com/v1/forecast?latitude=$1&longitude=$2&current=temperature_2m','','# WHAT: Current temperature in Celsius for one latitude and longitude, from the Open-Meteo public API.
# WHEN_TO_USE: a capability needs the live temperature at a coordinate.
# ARGS: $1=latitude | $2=longitude
# EX: [ZZ_TEST_TEMPERATURE]37.77|-122.42[/ZZ_TEST_TEMPERATURE]
# OUTPUT: JSON with current.temperature_2m','2026-07-26T05:01:44.120Z','tools',NULL,2,1,1,100,NULL,'["37.77|-122.42"]',0,NULL,NULL,NULL);
CREATE TABLE receipts (id TEXT PRIMARY KEY, key TEXT NOT NULL, created_at TEXT NOT NULL, body TEXT);
INSERT INTO "receipts" ("id","key","created_at","body") VALUES('inv_c23irnzhx1','ZZ_TEST_TEMPERATURE','2026-07-26T05:02:00.000Z','{"ok":true}');
INSERT INTO "receipts" ("id","key","created_at","body") VALUES('inv_d8k1m2n3p4','SHOUT','2026-07-26T05:03:00.000Z','{"ok":true}');
CREATE INDEX idx_directory_category ON directory(category);
CREATE INDEX idx_receipts_key ON receipts(key, created_at);
