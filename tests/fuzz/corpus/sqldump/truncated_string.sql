CREATE TABLE directory (key TEXT PRIMARY KEY, type TEXT, content TEXT);
INSERT INTO directory VALUES ('AA', 'fn', 'half of a
string