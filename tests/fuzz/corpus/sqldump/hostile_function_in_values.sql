CREATE TABLE directory (key TEXT PRIMARY KEY, type TEXT, content TEXT);
INSERT INTO directory VALUES ('AA', 'fn', randomblob(1000000000));
