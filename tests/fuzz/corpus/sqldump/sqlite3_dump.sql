PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE directory (key TEXT PRIMARY KEY, type TEXT, content TEXT, seq INTEGER);
INSERT INTO directory VALUES('A','fn',replace(replace('x\r\ny','\r',char(13)),'\n',char(10)),-3);
ANALYZE sqlite_schema;
INSERT INTO sqlite_stat1 VALUES('directory','ix','3 2');
CREATE INDEX ix ON directory(type);
COMMIT;
