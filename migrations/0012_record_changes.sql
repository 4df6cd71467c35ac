-- Merges never go back: every record people edit carries when and by whom
-- it last changed, so an import keeps the newer change and tells a record
-- that is older than the one this store last exchanged from a change made
-- since. NULL where the time is not known (records changed before this
-- version): older than any known time.
--
-- Every row is kept.

ALTER TABLE claims ADD COLUMN changed_at TEXT
    CHECK (changed_at IS NULL OR (length(changed_at) = 20 AND changed_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T*Z'));
ALTER TABLE claims ADD COLUMN changed_by TEXT CHECK (changed_by IS NULL OR length(trim(changed_by)) > 0);

ALTER TABLE sources ADD COLUMN changed_at TEXT
    CHECK (changed_at IS NULL OR (length(changed_at) = 20 AND changed_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T*Z'));
ALTER TABLE sources ADD COLUMN changed_by TEXT CHECK (changed_by IS NULL OR length(trim(changed_by)) > 0);

ALTER TABLE capabilities ADD COLUMN changed_at TEXT
    CHECK (changed_at IS NULL OR (length(changed_at) = 20 AND changed_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T*Z'));
ALTER TABLE capabilities ADD COLUMN changed_by TEXT CHECK (changed_by IS NULL OR length(trim(changed_by)) > 0);

ALTER TABLE environment_lacks ADD COLUMN changed_at TEXT
    CHECK (changed_at IS NULL OR (length(changed_at) = 20 AND changed_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T*Z'));
ALTER TABLE environment_lacks ADD COLUMN changed_by TEXT CHECK (changed_by IS NULL OR length(trim(changed_by)) > 0);

ALTER TABLE checklists ADD COLUMN changed_at TEXT
    CHECK (changed_at IS NULL OR (length(changed_at) = 20 AND changed_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T*Z'));
ALTER TABLE checklists ADD COLUMN changed_by TEXT CHECK (changed_by IS NULL OR length(trim(changed_by)) > 0);

ALTER TABLE checklist_items ADD COLUMN changed_at TEXT
    CHECK (changed_at IS NULL OR (length(changed_at) = 20 AND changed_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T*Z'));
ALTER TABLE checklist_items ADD COLUMN changed_by TEXT CHECK (changed_by IS NULL OR length(trim(changed_by)) > 0);
