-- A wrong issue link removed, and the removal kept.
--
-- `result link` ties a result to the issue that tracks it; a link made by
-- mistake (the wrong bug, the wrong result) is removed with `result unlink`:
-- the link leaves `result_links`, so no reason or view names the issue any
-- more, and this table keeps what it was and who removed it, when and why.
-- Like a retraction, an unlink is only ever added; it travels in the run's
-- file of the text format beside the link it removes.

CREATE TABLE result_unlinks (
    id          INTEGER PRIMARY KEY,
    uuid        TEXT NOT NULL UNIQUE CHECK (length(uuid) = 36 AND uuid NOT GLOB '*[^0-9a-f-]*'),
    -- The link removed, as it was.
    link_uuid   TEXT NOT NULL UNIQUE CHECK (length(link_uuid) = 36 AND link_uuid NOT GLOB '*[^0-9a-f-]*'),
    result_id   INTEGER NOT NULL REFERENCES results (id) ON DELETE CASCADE,
    url         TEXT NOT NULL,
    linked_by   TEXT NOT NULL,
    linked_at   TEXT NOT NULL,
    unlinked_by TEXT NOT NULL CHECK (length(trim(unlinked_by)) > 0),
    unlinked_at TEXT NOT NULL
                CHECK (unlinked_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z'
                       AND strftime('%Y-%m-%dT%H:%M:%SZ', julianday(unlinked_at)) = unlinked_at),
    reason      TEXT NOT NULL CHECK (length(trim(reason)) > 0)
) STRICT;

CREATE INDEX result_unlinks_by_result ON result_unlinks (result_id);

CREATE TRIGGER result_unlinks_no_update BEFORE UPDATE ON result_unlinks
BEGIN
    SELECT RAISE(ABORT, 'an unlink is never changed');
END;
