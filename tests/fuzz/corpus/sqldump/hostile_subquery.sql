CREATE TABLE directory (key TEXT PRIMARY KEY, type TEXT, content TEXT);
INSERT INTO directory VALUES ('AA', 'fn', NULL), ('BB', 'fn', (SELECT 1 FROM (VALUES(1),(2)) a, (VALUES(1),(2)) b));
