CREATE TABLE directory (key TEXT PRIMARY KEY, type TEXT, content TEXT);
CREATE TRIGGER t AFTER INSERT ON directory BEGIN INSERT INTO directory SELECT * FROM directory; END;
CREATE VIEW v AS SELECT * FROM directory;
INSERT INTO directory VALUES ('AA','fn',NULL);
