INSERT INTO directory (key,type,updated_at) VALUES('AB','fn','2026-07-26T04:36:19.832Z
Set-Cookie: x');
