-- A key made by `signing-key new` keeps its signed statement of the keys it follows
-- (SigningKeySuccession), so that `log --verify` can trust the chains signed before it
-- through a signature rather than through the list alone, which anyone who can write the
-- file could extend. Keys made before keep NULL: each was a directory's first key.
ALTER TABLE signing_keys ADD COLUMN succession TEXT;
