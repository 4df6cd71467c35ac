-- A claim's key changed, and the old key kept.
--
-- `claim rename OLD NEW` changes the key every output and the text format
-- use; results, label history, statements, checklist items and test mappings
-- follow by the claim's row id. This table keeps every key a claim had, who
-- renamed it, when and why, so records from a clone that still names the
-- old key (its run files, its claims file) import to the renamed claim.
-- Like a retraction, a rename is only ever added; it travels in renames.jsonl.

CREATE TABLE claim_renames (
    id         INTEGER PRIMARY KEY,
    uuid       TEXT NOT NULL UNIQUE CHECK (length(uuid) = 36 AND uuid NOT GLOB '*[^0-9a-f-]*'),
    claim_id   INTEGER NOT NULL REFERENCES claims (id) ON DELETE CASCADE,
    old_key    TEXT NOT NULL CHECK (length(old_key) BETWEEN 1 AND 200 AND old_key NOT GLOB '*[^A-Za-z0-9._-]*'),
    new_key    TEXT NOT NULL CHECK (length(new_key) BETWEEN 1 AND 200 AND new_key NOT GLOB '*[^A-Za-z0-9._-]*'),
    renamed_by TEXT NOT NULL CHECK (length(trim(renamed_by)) > 0),
    renamed_at TEXT NOT NULL
               CHECK (renamed_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z'
                      AND strftime('%Y-%m-%dT%H:%M:%SZ', julianday(renamed_at)) = renamed_at),
    reason     TEXT NOT NULL DEFAULT '',
    CHECK (old_key <> new_key)
) STRICT;

CREATE INDEX claim_renames_by_old_key ON claim_renames (old_key, renamed_at, uuid);
CREATE INDEX claim_renames_by_claim ON claim_renames (claim_id);

CREATE TRIGGER claim_renames_no_update BEFORE UPDATE ON claim_renames
BEGIN
    SELECT RAISE(ABORT, 'a rename is never changed');
END;

CREATE TRIGGER claim_renames_no_delete BEFORE DELETE ON claim_renames
BEGIN
    SELECT RAISE(ABORT, 'a rename is never deleted');
END;
