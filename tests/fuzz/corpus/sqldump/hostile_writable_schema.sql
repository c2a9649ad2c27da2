PRAGMA writable_schema=ON;
INSERT INTO sqlite_schema VALUES('table','x','x',0,'CREATE TABLE x(a)');
