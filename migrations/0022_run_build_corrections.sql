-- Which OS build an earlier run used, said after the fact.
--
-- A device run logged without its OS build ("iOS 27.1") is older than any
-- run of the same iOS that records one ("iOS 27.1 (24B85)"), so one log
-- with the build turns a team's proof stale. Where the tester knows the
-- earlier run used that build too, `run correct` says so: the run and its
-- results move to the environment with that build, and this table keeps
-- what the run recorded, who corrected it, when and why. Like a retraction,
-- a correction is only ever added; the latest (by time, then UUID) decides
-- the run's build, and it travels in the run's file, whose header keeps the
-- build as recorded.

CREATE TABLE run_corrections (
    id                INTEGER PRIMARY KEY,
    uuid              TEXT NOT NULL UNIQUE CHECK (length(uuid) = 36 AND uuid NOT GLOB '*[^0-9a-f-]*'),
    run_id            INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    -- The OS build the run recorded ('' for none), and the one it used.
    recorded_os_build TEXT NOT NULL,
    os_build          TEXT NOT NULL CHECK (length(os_build) > 0 AND os_build NOT GLOB '*[^0-9A-Za-z]*'),
    corrected_by      TEXT NOT NULL CHECK (length(trim(corrected_by)) > 0),
    corrected_at      TEXT NOT NULL
                      CHECK (corrected_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z'
                             AND strftime('%Y-%m-%dT%H:%M:%SZ', julianday(corrected_at)) = corrected_at),
    reason            TEXT NOT NULL CHECK (length(trim(reason)) > 0)
) STRICT;

CREATE INDEX run_corrections_by_run ON run_corrections (run_id, corrected_at, uuid);

CREATE TRIGGER run_corrections_no_update BEFORE UPDATE ON run_corrections
BEGIN
    SELECT RAISE(ABORT, 'a correction is never changed');
END;

CREATE TRIGGER run_corrections_no_delete BEFORE DELETE ON run_corrections
BEGIN
    SELECT RAISE(ABORT, 'a correction is never deleted');
END;
