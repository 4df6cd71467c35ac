-- Records that merge: what text format version 2 needs from the store.
--
-- * Label changes get a UUID, and the change each follows, so two people's
--   histories of one claim merge as a union and still hold together.
-- * A result or run may be retracted twice (by two people, on two branches):
--   the retractions are kept side by side, and any one of them retracts.
-- * exchanged_records keeps each editable record as it was last exported to
--   or imported from a text folder: the common base that tells a change made
--   here from one made elsewhere, so an import takes the other side's edits
--   and keeps this store's.
--
-- The binary registers evidence_legacy_label_change_uuid(claim_key, n) for
-- this migration only; no view, trigger or column calls it.

-- MARK: - Label changes: a UUID and the change each follows

CREATE TABLE new_label_history (
    id         INTEGER PRIMARY KEY,
    uuid       TEXT NOT NULL UNIQUE
               CHECK (length(uuid) = 36 AND uuid NOT GLOB '*[^0-9a-f-]*'),
    claim_id   INTEGER NOT NULL REFERENCES claims (id) ON DELETE RESTRICT,
    -- The change this one was made after, on the claim's label as it then
    -- stood; NULL for the first. Two changes that follow the same one were
    -- made apart, and merged.
    follows_id INTEGER REFERENCES label_history (id) ON DELETE RESTRICT,
    old_label  TEXT CHECK (old_label IS NULL
                           OR old_label IN ('measured', 'unverified', 'not-published', 'sourced')),
    new_label  TEXT NOT NULL
               CHECK (new_label IN ('measured', 'unverified', 'not-published', 'sourced')),
    changed_by TEXT NOT NULL CHECK (length(trim(changed_by)) > 0),
    changed_at TEXT NOT NULL
               CHECK (changed_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z'
                      AND strftime('%Y-%m-%dT%H:%M:%SZ', julianday(changed_at)) = changed_at),
    reason     TEXT NOT NULL CHECK (length(trim(reason)) > 0),
    CHECK (follows_id IS NULL OR follows_id <> id)
) STRICT;

INSERT INTO new_label_history (id, uuid, claim_id, follows_id, old_label, new_label, changed_by, changed_at, reason)
SELECT h.id,
       evidence_legacy_label_change_uuid(c.key, row_number() OVER (PARTITION BY h.claim_id ORDER BY h.id)),
       h.claim_id, lag(h.id) OVER (PARTITION BY h.claim_id ORDER BY h.id),
       h.old_label, h.new_label, h.changed_by, h.changed_at, h.reason
FROM label_history AS h JOIN claims AS c ON c.id = h.claim_id;

DROP TABLE label_history;
ALTER TABLE new_label_history RENAME TO label_history;

CREATE INDEX label_history_by_claim ON label_history (claim_id, changed_at);
CREATE INDEX label_history_by_follows ON label_history (follows_id) WHERE follows_id IS NOT NULL;

CREATE TRIGGER label_history_no_update BEFORE UPDATE ON label_history
BEGIN
    SELECT RAISE(ABORT, 'label_history is append-only');
END;

CREATE TRIGGER label_history_no_delete BEFORE DELETE ON label_history
BEGIN
    SELECT RAISE(ABORT, 'label_history is append-only');
END;

-- MARK: - Retractions made apart are kept side by side

DROP INDEX retractions_of_results;
DROP INDEX retractions_of_runs;
CREATE INDEX retractions_of_results ON retractions (result_id) WHERE result_id IS NOT NULL;
CREATE INDEX retractions_of_runs ON retractions (run_id) WHERE run_id IS NOT NULL;

-- MARK: - The base of the next import

-- kind: source, capability, claim, lack, checklist or checklist item; key:
-- the record's natural key (a lack's is kind, model, Xcode build and
-- capability, joined by line feeds); line: the record as the text format
-- writes it.
CREATE TABLE exchanged_records (
    kind TEXT NOT NULL
         CHECK (kind IN ('source', 'capability', 'claim', 'lack', 'checklist', 'checklist item')),
    key  TEXT NOT NULL CHECK (length(key) > 0),
    line TEXT NOT NULL CHECK (line GLOB '{*}'),
    PRIMARY KEY (kind, key)
) STRICT, WITHOUT ROWID;
