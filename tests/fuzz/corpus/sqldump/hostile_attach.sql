ATTACH DATABASE '/tmp/capdesk-fuzz-attached.db' AS other;
CREATE TABLE other.directory (key TEXT);
