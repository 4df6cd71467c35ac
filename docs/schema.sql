-- The schema of an evidence store at version 27, as a fresh store holds it:
-- tables, indexes, views and triggers, each kind sorted by name.
-- Generated from migrations/ by the tests (SchemaDocumentTests); do not edit.
-- Refresh it with: EVIDENCE_UPDATE_GOLDEN=1 swift test --filter SchemaDocumentTests

-- MARK: - Tables

CREATE TABLE attachments (
    id         INTEGER PRIMARY KEY,
    result_id  INTEGER NOT NULL REFERENCES results (id) ON DELETE CASCADE,
    path       TEXT NOT NULL
               CHECK (length(path) > 0 AND path NOT GLOB '/*' AND path <> '..'
                      AND path NOT GLOB '../*' AND path NOT GLOB '*/../*' AND path NOT GLOB '*/..'),
    sha256     TEXT NOT NULL CHECK (length(sha256) = 64 AND sha256 NOT GLOB '*[^0-9a-f]*'),
    size       INTEGER NOT NULL CHECK (size >= 0),
    media_type TEXT NOT NULL CHECK (media_type GLOB '?*/?*'), with_failure INTEGER NOT NULL DEFAULT 0 CHECK (with_failure IN (0, 1)),
    UNIQUE (result_id, path)
) STRICT;

CREATE TABLE capabilities (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE
                CHECK (length(name) BETWEEN 1 AND 100
                       AND name GLOB '[a-z0-9]*'
                       AND name NOT GLOB '*[^a-z0-9-]*'),
    description TEXT NOT NULL CHECK (length(trim(description)) > 0)
, changed_at TEXT
    CHECK (changed_at IS NULL OR (length(changed_at) = 20 AND changed_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T*Z')), changed_by TEXT CHECK (changed_by IS NULL OR length(trim(changed_by)) > 0)) STRICT;

CREATE TABLE checklist_item_claims (
    checklist_item_id INTEGER NOT NULL REFERENCES checklist_items (id) ON DELETE CASCADE,
    claim_id          INTEGER NOT NULL REFERENCES claims (id) ON DELETE CASCADE,
    PRIMARY KEY (checklist_item_id, claim_id)
) STRICT, WITHOUT ROWID;

CREATE TABLE "checklist_items" (
    id           INTEGER PRIMARY KEY,
    checklist_id INTEGER NOT NULL REFERENCES checklists (id) ON DELETE CASCADE,
    key          TEXT NOT NULL UNIQUE
                 CHECK (length(key) BETWEEN 1 AND 200
                        AND key GLOB '[A-Za-z0-9]*'
                        AND key NOT GLOB '*[^A-Za-z0-9._-]*'),
    position     INTEGER NOT NULL CHECK (position >= 1),
    text         TEXT NOT NULL CHECK (length(trim(text)) > 0),
    mark         TEXT CHECK (mark IS NULL OR mark IN ('untested', 'checked')),
    mark_reason  TEXT CHECK (mark_reason IS NULL OR length(trim(mark_reason)) > 0),
    marked_by    TEXT,
    marked_at    TEXT, changed_at TEXT
    CHECK (changed_at IS NULL OR (length(changed_at) = 20 AND changed_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T*Z')), changed_by TEXT CHECK (changed_by IS NULL OR length(trim(changed_by)) > 0),
    CHECK ((mark IS NULL) = (mark_reason IS NULL)
           AND (mark IS NULL) = (marked_by IS NULL)
           AND (mark IS NULL) = (marked_at IS NULL)),
    UNIQUE (checklist_id, position)
) STRICT;

CREATE TABLE checklists (
    id       INTEGER PRIMARY KEY,
    document TEXT NOT NULL UNIQUE CHECK (length(trim(document)) > 0),
    title    TEXT NOT NULL CHECK (length(trim(title)) > 0)
, changed_at TEXT
    CHECK (changed_at IS NULL OR (length(changed_at) = 20 AND changed_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T*Z')), changed_by TEXT CHECK (changed_by IS NULL OR length(trim(changed_by)) > 0)) STRICT;

CREATE TABLE claim_capabilities (
    claim_id      INTEGER NOT NULL REFERENCES claims (id) ON DELETE CASCADE,
    capability_id INTEGER NOT NULL REFERENCES capabilities (id) ON DELETE RESTRICT,
    PRIMARY KEY (claim_id, capability_id)
) STRICT, WITHOUT ROWID;

CREATE TABLE "claim_expectations" (
    id        INTEGER PRIMARY KEY,
    claim_id  INTEGER NOT NULL REFERENCES claims (id) ON DELETE CASCADE,
    name      TEXT NOT NULL CHECK (length(trim(name)) > 0),
    value     REAL NOT NULL,
    unit      TEXT NOT NULL
              CHECK (unit = 'pt' OR unit = 'px' OR unit = 'mm' OR unit = 'ms' OR unit = 's' OR unit = '%'
                     OR unit = 'count' OR unit = 'fps' OR unit = 'B' OR unit = 'KB' OR unit = 'MB' OR unit = 'x'),
    tolerance REAL NOT NULL CHECK (tolerance >= 0), bound TEXT NOT NULL DEFAULT 'within'
    CHECK (bound = 'within' OR (bound IN ('at-most', 'at-least') AND tolerance = 0)),
    UNIQUE (claim_id, name)
) STRICT;

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

CREATE TABLE claim_retirements (
    id         INTEGER PRIMARY KEY,
    uuid       TEXT NOT NULL UNIQUE CHECK (length(uuid) = 36 AND uuid NOT GLOB '*[^0-9a-f-]*'),
    claim_id   INTEGER NOT NULL REFERENCES claims (id) ON DELETE CASCADE,
    -- 'retire' takes the claim out; 'restore' brings it back.
    action     TEXT NOT NULL CHECK (action IN ('retire', 'restore')),
    changed_by TEXT NOT NULL CHECK (length(trim(changed_by)) > 0),
    changed_at TEXT NOT NULL
               CHECK (changed_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z'
                      AND strftime('%Y-%m-%dT%H:%M:%SZ', julianday(changed_at)) = changed_at),
    reason     TEXT NOT NULL DEFAULT ''
) STRICT;

CREATE TABLE claim_sources (
    id        INTEGER PRIMARY KEY,
    claim_id  INTEGER NOT NULL REFERENCES claims (id) ON DELETE CASCADE,
    source_id INTEGER NOT NULL REFERENCES sources (id) ON DELETE RESTRICT,
    locator   TEXT NOT NULL DEFAULT ''
              CHECK (locator = '' OR (locator GLOB '[?#]?*'
                     AND locator NOT GLOB ('*[' || char(9, 10, 13, 32) || ']*'))),
    UNIQUE (claim_id, source_id, locator)
) STRICT;

CREATE TABLE claim_statements (
    id          INTEGER PRIMARY KEY,
    claim_id    INTEGER NOT NULL REFERENCES claims (id) ON DELETE CASCADE,
    statement   TEXT NOT NULL CHECK (length(trim(statement)) > 0),
    recorded_at TEXT
                CHECK (recorded_at IS NULL
                       OR recorded_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z')
) STRICT;

CREATE TABLE claim_subjects (
    claim_id INTEGER NOT NULL REFERENCES claims (id) ON DELETE CASCADE,
    model    TEXT NOT NULL CHECK (length(trim(model)) > 0 AND model <> '*'),
    PRIMARY KEY (claim_id, model)
) STRICT, WITHOUT ROWID;

CREATE TABLE claims (
    id        INTEGER PRIMARY KEY,
    key       TEXT NOT NULL UNIQUE
              CHECK (length(key) BETWEEN 1 AND 200
                     AND key GLOB '[A-Za-z0-9]*'
                     AND key NOT GLOB '*[^A-Za-z0-9._-]*'),
    statement TEXT NOT NULL CHECK (length(trim(statement)) > 0),
    document  TEXT NOT NULL CHECK (length(trim(document)) > 0),
    area      TEXT NOT NULL CHECK (length(trim(area)) > 0),
    label     TEXT NOT NULL
              CHECK (label IN ('measured', 'unverified', 'not-published', 'sourced')),
    as_of     TEXT CHECK (as_of IS NULL
                          OR (as_of GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'
                              AND date(julianday(as_of)) = as_of))
, changed_at TEXT
    CHECK (changed_at IS NULL OR (length(changed_at) = 20 AND changed_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T*Z')), changed_by TEXT CHECK (changed_by IS NULL OR length(trim(changed_by)) > 0), owner TEXT NOT NULL DEFAULT '' CHECK (owner = trim(owner))) STRICT;

CREATE TABLE document_subjects (
    document TEXT NOT NULL CHECK (length(trim(document)) > 0),
    model    TEXT NOT NULL CHECK (length(trim(model)) > 0 AND model <> '*'),
    PRIMARY KEY (document, model)
) STRICT, WITHOUT ROWID;

CREATE TABLE "environment_lacks" (
    id               INTEGER PRIMARY KEY,
    kind             TEXT NOT NULL CHECK (kind IN ('device', 'simulator')),
    -- A model, or '*' for every model of the kind.
    model            TEXT NOT NULL CHECK (length(trim(model)) > 0),
    -- The Xcode build the record holds from; '' for from the first.
    tool_build       TEXT NOT NULL DEFAULT '',
    tool_build_order TEXT GENERATED ALWAYS AS (
        CASE WHEN tool_build = '' THEN '' ELSE printf('%06d%s%d%08d%s',
            CAST(tool_build AS INTEGER),
            substr(tool_build, length(CAST(CAST(tool_build AS INTEGER) AS TEXT)) + 1, 1),
            CAST(substr(tool_build, length(CAST(CAST(tool_build AS INTEGER) AS TEXT)) + 2) AS INTEGER) < 5000,
            CAST(substr(tool_build, length(CAST(CAST(tool_build AS INTEGER) AS TEXT)) + 2) AS INTEGER),
            substr(tool_build, length(CAST(CAST(tool_build AS INTEGER) AS TEXT)) + 2
                + length(CAST(CAST(substr(tool_build, length(CAST(CAST(tool_build AS INTEGER) AS TEXT)) + 2) AS INTEGER) AS TEXT))))
        END) STORED,
    capability_id    INTEGER NOT NULL REFERENCES capabilities (id) ON DELETE CASCADE,
    -- What the record says: the capability is missing, or there.
    status           TEXT NOT NULL DEFAULT 'lacks' CHECK (status IN ('lacks', 'has')),
    source_id        INTEGER REFERENCES sources (id) ON DELETE RESTRICT,
    reported_in      TEXT CHECK (reported_in IS NULL OR length(trim(reported_in)) > 0),
    note             TEXT NOT NULL DEFAULT '', changed_at TEXT
    CHECK (changed_at IS NULL OR (length(changed_at) = 20 AND changed_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T*Z')), changed_by TEXT CHECK (changed_by IS NULL OR length(trim(changed_by)) > 0),
    CHECK ((source_id IS NULL) <> (reported_in IS NULL)),
    UNIQUE (kind, model, tool_build, capability_id)
) STRICT;

CREATE TABLE environments (
    id               INTEGER PRIMARY KEY,
    kind             TEXT NOT NULL CHECK (kind IN ('device', 'simulator')),
    model            TEXT NOT NULL CHECK (length(trim(model)) > 0),
    os_name          TEXT NOT NULL DEFAULT '',
    os_version       TEXT NOT NULL DEFAULT '',
    os_build         TEXT NOT NULL DEFAULT '',
    tool_name        TEXT NOT NULL DEFAULT '',
    tool_version     TEXT NOT NULL DEFAULT '',
    tool_build       TEXT NOT NULL DEFAULT '',
    os_build_order   TEXT GENERATED ALWAYS AS (
        CASE WHEN os_build = '' THEN '' ELSE printf('%06d%s%d%08d%s',
            CAST(os_build AS INTEGER),
            substr(os_build, length(CAST(CAST(os_build AS INTEGER) AS TEXT)) + 1, 1),
            CAST(substr(os_build, length(CAST(CAST(os_build AS INTEGER) AS TEXT)) + 2) AS INTEGER) < 5000,
            CAST(substr(os_build, length(CAST(CAST(os_build AS INTEGER) AS TEXT)) + 2) AS INTEGER),
            substr(os_build, length(CAST(CAST(os_build AS INTEGER) AS TEXT)) + 2
                + length(CAST(CAST(substr(os_build, length(CAST(CAST(os_build AS INTEGER) AS TEXT)) + 2) AS INTEGER) AS TEXT))))
        END) STORED,
    tool_build_order TEXT GENERATED ALWAYS AS (
        CASE WHEN tool_build = '' THEN '' ELSE printf('%06d%s%d%08d%s',
            CAST(tool_build AS INTEGER),
            substr(tool_build, length(CAST(CAST(tool_build AS INTEGER) AS TEXT)) + 1, 1),
            CAST(substr(tool_build, length(CAST(CAST(tool_build AS INTEGER) AS TEXT)) + 2) AS INTEGER) < 5000,
            CAST(substr(tool_build, length(CAST(CAST(tool_build AS INTEGER) AS TEXT)) + 2) AS INTEGER),
            substr(tool_build, length(CAST(CAST(tool_build AS INTEGER) AS TEXT)) + 2
                + length(CAST(CAST(substr(tool_build, length(CAST(CAST(tool_build AS INTEGER) AS TEXT)) + 2) AS INTEGER) AS TEXT))))
        END) STORED, os_version_order TEXT NOT NULL DEFAULT ''
    CHECK (os_version_order = '' OR os_version_order GLOB '[0-9][0-9][0-9][0-9][0-9][0-9].*'), tool_version_order TEXT NOT NULL DEFAULT ''
    CHECK (tool_version_order = '' OR tool_version_order GLOB '[0-9][0-9][0-9][0-9][0-9][0-9].*'),
    CHECK (os_build = '' OR (
        printf('%d%s%d%s', CAST(substr(os_build_order, 1, 6) AS INTEGER), substr(os_build_order, 7, 1),
               CAST(substr(os_build_order, 9, 8) AS INTEGER), substr(os_build_order, 17)) = os_build
        AND CAST(substr(os_build_order, 1, 6) AS INTEGER) > 0
        AND substr(os_build_order, 7, 1) GLOB '[A-Z]'
        AND CAST(substr(os_build_order, 9, 8) AS INTEGER) > 0
        AND length(substr(os_build_order, 17)) <= 2
        AND substr(os_build_order, 17) NOT GLOB '*[^a-z]*')),
    CHECK (tool_build = '' OR (
        printf('%d%s%d%s', CAST(substr(tool_build_order, 1, 6) AS INTEGER), substr(tool_build_order, 7, 1),
               CAST(substr(tool_build_order, 9, 8) AS INTEGER), substr(tool_build_order, 17)) = tool_build
        AND CAST(substr(tool_build_order, 1, 6) AS INTEGER) > 0
        AND substr(tool_build_order, 7, 1) GLOB '[A-Z]'
        AND CAST(substr(tool_build_order, 9, 8) AS INTEGER) > 0
        AND length(substr(tool_build_order, 17)) <= 2
        AND substr(tool_build_order, 17) NOT GLOB '*[^a-z]*')),
    UNIQUE (kind, model, os_name, os_version, os_build, tool_name, tool_version, tool_build)
) STRICT;

CREATE TABLE "exchanged_records" (
    kind TEXT NOT NULL
         CHECK (kind IN ('source', 'capability', 'claim', 'lack', 'checklist', 'checklist item', 'document')),
    key  TEXT NOT NULL CHECK (length(key) > 0),
    line TEXT NOT NULL CHECK (line GLOB '{*}'),
    PRIMARY KEY (kind, key)
) STRICT, WITHOUT ROWID;

CREATE TABLE ingested_files (
    id          INTEGER PRIMARY KEY,
    sha256      TEXT NOT NULL UNIQUE
                CHECK (length(sha256) = 64 AND sha256 NOT GLOB '*[^0-9a-f]*'),
    file_name   TEXT NOT NULL,
    format      TEXT NOT NULL CHECK (format IN ('junit', 'xcresult')),
    test_count  INTEGER NOT NULL CHECK (test_count >= 0),
    ingested_at TEXT NOT NULL
                CHECK (ingested_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z'
                       AND strftime('%Y-%m-%dT%H:%M:%SZ', julianday(ingested_at)) = ingested_at)
) STRICT;

CREATE TABLE "label_history" (
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

CREATE TABLE latest_decisive_results (
    claim_id       INTEGER NOT NULL REFERENCES claims (id) ON DELETE CASCADE,
    environment_id INTEGER NOT NULL REFERENCES environments (id) ON DELETE CASCADE,
    result_id      INTEGER NOT NULL REFERENCES results (id) ON DELETE CASCADE,
    PRIMARY KEY (claim_id, environment_id)
) STRICT, WITHOUT ROWID;

CREATE TABLE "measurements" (
    id        INTEGER PRIMARY KEY,
    result_id INTEGER NOT NULL REFERENCES results (id) ON DELETE CASCADE,
    name      TEXT NOT NULL CHECK (length(trim(name)) > 0),
    value     REAL NOT NULL,
    unit      TEXT NOT NULL
              CHECK (unit = 'pt' OR unit = 'px' OR unit = 'mm' OR unit = 'ms' OR unit = 's' OR unit = '%'
                     OR unit = 'count' OR unit = 'fps' OR unit = 'B' OR unit = 'KB' OR unit = 'MB' OR unit = 'x'),
    baseline  REAL,
    posture   TEXT CHECK (posture IS NULL OR posture = 'closed' OR posture = 'open' OR posture = 'open-wide'
                          OR posture = 'book' OR posture = 'portrait' OR posture = 'landscape')
, samples INTEGER CHECK (samples IS NULL OR samples > 0), standard_deviation REAL
    CHECK (standard_deviation IS NULL OR standard_deviation >= 0)) STRICT;

CREATE TABLE result_links (
    id        INTEGER PRIMARY KEY,
    uuid      TEXT NOT NULL UNIQUE
              CHECK (length(uuid) = 36 AND uuid NOT GLOB '*[^0-9a-f-]*'),
    result_id INTEGER NOT NULL REFERENCES results (id) ON DELETE CASCADE,
    url       TEXT NOT NULL
              CHECK ((url GLOB 'https://?*' OR url GLOB 'http://?*') AND url NOT GLOB '*[ ' || char(9) || ']*'),
    linked_by TEXT NOT NULL CHECK (length(trim(linked_by)) > 0),
    linked_at TEXT NOT NULL
              CHECK (linked_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z'
                     AND strftime('%Y-%m-%dT%H:%M:%SZ', julianday(linked_at)) = linked_at),
    UNIQUE (result_id, url)
) STRICT;

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

CREATE TABLE "results" (
    id                 INTEGER PRIMARY KEY,
    uuid               TEXT NOT NULL UNIQUE CHECK (length(uuid) = 36),
    run_id             INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    environment_id     INTEGER NOT NULL,
    claim_id           INTEGER REFERENCES claims (id) ON DELETE RESTRICT,
    -- The words of the claim this result proved; NULL for an automated test with no claim.
    claim_statement_id INTEGER,
    result             TEXT NOT NULL
                       CHECK (result = 'pass' OR result = 'fail' OR result = 'skipped' OR result = 'blocked'
                              OR result = 'inconclusive'),
    posture            TEXT CHECK (posture IS NULL OR posture = 'closed' OR posture = 'open' OR posture = 'open-wide'
                                   OR posture = 'book' OR posture = 'portrait' OR posture = 'landscape'),
    note               TEXT NOT NULL DEFAULT '',
    -- When it was checked, in UTC: a day (YYYY-MM-DD), or a time to the second
    -- (YYYY-MM-DDTHH:MM:SSZ). NULL when the document that reports the result
    -- gives no date: older than any date.
    checked_at         TEXT CHECK (checked_at IS NULL
                                   OR ((length(checked_at) = 10 OR length(checked_at) = 20)
                                       AND checked_at BETWEEN '0001-01-01' AND '9999-12-31T23:59:59Z')),
    checked_precision  TEXT GENERATED ALWAYS AS (
                           CASE length(checked_at) WHEN 10 THEN 'day' WHEN 20 THEN 'time' END) VIRTUAL,
    -- When it was recorded, in UTC to the microsecond (YYYY-MM-DDTHH:MM:SS.ffffffZ):
    -- the order results were recorded in, wherever they were recorded.
    recorded_at        TEXT NOT NULL CHECK (length(recorded_at) = 27
                                            AND recorded_at BETWEEN '0001-01-01' AND '9999-12-31T23:59:59.999999Z'),
    test_id            TEXT CHECK (test_id IS NULL OR length(test_id) > 0),
    duration           REAL CHECK (duration IS NULL OR duration >= 0),
    message            TEXT, judged INTEGER NOT NULL DEFAULT 0 CHECK (judged = 0 OR judged = 1),
    CHECK (claim_id IS NOT NULL OR test_id IS NOT NULL),
    CHECK ((claim_id IS NULL) = (claim_statement_id IS NULL)),
    FOREIGN KEY (run_id, environment_id) REFERENCES runs (id, environment_id) ON UPDATE CASCADE,
    FOREIGN KEY (claim_id, claim_statement_id) REFERENCES claim_statements (claim_id, id)
) STRICT;

CREATE TABLE retractions (
    id           INTEGER PRIMARY KEY,
    uuid         TEXT NOT NULL UNIQUE
                 CHECK (length(uuid) = 36 AND uuid NOT GLOB '*[^0-9a-f-]*'),
    result_id    INTEGER REFERENCES results (id) ON DELETE CASCADE,
    run_id       INTEGER REFERENCES runs (id) ON DELETE CASCADE,
    retracted_by TEXT NOT NULL CHECK (length(trim(retracted_by)) > 0),
    retracted_at TEXT NOT NULL
                 CHECK (retracted_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z'
                        AND strftime('%Y-%m-%dT%H:%M:%SZ', julianday(retracted_at)) = retracted_at),
    reason       TEXT NOT NULL CHECK (length(trim(reason)) > 0),
    CHECK ((result_id IS NULL) <> (run_id IS NULL))
) STRICT;

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

CREATE TABLE runs (
    id               INTEGER PRIMARY KEY,
    uuid             TEXT NOT NULL UNIQUE
                     CHECK (length(uuid) = 36 AND uuid NOT GLOB '*[^0-9a-f-]*'
                            AND substr(uuid, 9, 1) = '-' AND substr(uuid, 14, 1) = '-'
                            AND substr(uuid, 19, 1) = '-' AND substr(uuid, 24, 1) = '-'),
    environment_id   INTEGER NOT NULL REFERENCES environments (id) ON DELETE RESTRICT,
    -- NULL when the document that reports the run gives no date.
    started_at       TEXT
                     CHECK (started_at IS NULL
                         OR (started_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'
                             AND date(julianday(started_at)) = started_at)
                         OR (started_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z'
                             AND strftime('%Y-%m-%dT%H:%M:%SZ', julianday(started_at)) = started_at)),
    tester           TEXT NOT NULL DEFAULT '',
    note             TEXT NOT NULL DEFAULT '',
    ingested_file_id INTEGER REFERENCES ingested_files (id) ON DELETE CASCADE
) STRICT;

CREATE TABLE schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at TEXT NOT NULL,
    sha256     TEXT CHECK (sha256 IS NULL OR (length(sha256) = 64 AND sha256 NOT GLOB '*[^0-9a-f]*'))
) STRICT;

CREATE TABLE sources (
    id        INTEGER PRIMARY KEY,
    url       TEXT NOT NULL UNIQUE
              CHECK ((url GLOB 'https://?*' OR url GLOB 'http://?*')
                     AND url NOT GLOB ('*[' || char(9, 10, 13, 32) || ']*')),
    title     TEXT NOT NULL CHECK (length(trim(title)) > 0),
    publisher TEXT NOT NULL CHECK (length(trim(publisher)) > 0),
    kind      TEXT NOT NULL
              CHECK (kind IN ('newsroom', 'doc', 'hig', 'video', 'tech-talk', 'specs',
                              'release-notes', 'article', 'other')),
    published TEXT CHECK (published IS NULL
                          OR (published GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'
                              AND date(julianday(published)) = published)),
    updated   TEXT CHECK (updated IS NULL
                          OR (updated GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'
                              AND date(julianday(updated)) = updated)),
    retrieved TEXT CHECK (retrieved IS NULL
                          OR (retrieved GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'
                              AND date(julianday(retrieved)) = retrieved))
, changed_at TEXT
    CHECK (changed_at IS NULL OR (length(changed_at) = 20 AND changed_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T*Z')), changed_by TEXT CHECK (changed_by IS NULL OR length(trim(changed_by)) > 0)) STRICT;

CREATE TABLE test_mappings (
    id       INTEGER PRIMARY KEY,
    pattern  TEXT NOT NULL CHECK (length(pattern) > 0),
    claim_id INTEGER NOT NULL REFERENCES claims (id) ON DELETE CASCADE,
    UNIQUE (pattern, claim_id)
) STRICT;

-- MARK: - Indexes

CREATE INDEX checklist_item_claims_by_claim ON checklist_item_claims (claim_id);

CREATE INDEX claim_capabilities_by_capability ON claim_capabilities (capability_id);

CREATE INDEX claim_renames_by_claim ON claim_renames (claim_id);

CREATE INDEX claim_renames_by_old_key ON claim_renames (old_key, renamed_at, uuid);

CREATE INDEX claim_retirements_by_claim ON claim_retirements (claim_id, changed_at, uuid);

CREATE INDEX claim_sources_by_source ON claim_sources (source_id);

CREATE UNIQUE INDEX claim_statements_by_claim ON claim_statements (claim_id, id);

CREATE INDEX claim_subjects_by_model ON claim_subjects (model);

CREATE INDEX claims_by_document ON claims (document, area, key);

CREATE INDEX claims_by_label ON claims (label);

CREATE INDEX claims_by_owner ON claims (owner) WHERE owner <> '';

CREATE INDEX environment_lacks_by_capability ON environment_lacks (capability_id, kind, model, tool_build_order);

CREATE INDEX environments_by_model ON environments (kind, model, os_build_order, tool_build_order);

CREATE INDEX environments_newest_first ON environments (
    kind, model, os_version_order DESC, os_build_order DESC, tool_version_order DESC, tool_build_order DESC, id DESC);

CREATE INDEX label_history_by_claim ON label_history (claim_id, changed_at);

CREATE INDEX label_history_by_follows ON label_history (follows_id) WHERE follows_id IS NOT NULL;

CREATE INDEX measurements_by_name ON measurements (name);

CREATE INDEX measurements_by_result ON measurements (result_id);

CREATE INDEX result_links_by_result ON result_links (result_id);

CREATE INDEX result_unlinks_by_result ON result_unlinks (result_id);

CREATE INDEX results_by_claim ON results (claim_id, recorded_at) WHERE claim_id IS NOT NULL;

CREATE INDEX results_by_run ON results (run_id);

CREATE INDEX results_decisive ON results (claim_id, environment_id, checked_at, recorded_at, id, result, run_id)
    WHERE claim_id IS NOT NULL AND result IN ('pass', 'fail');

CREATE INDEX results_judged ON results (claim_id) WHERE judged = 1;

CREATE INDEX results_not_decisive ON results (claim_id, environment_id, run_id)
    WHERE claim_id IS NOT NULL AND result NOT IN ('pass', 'fail');

CREATE INDEX retractions_of_results ON retractions (result_id) WHERE result_id IS NOT NULL;

CREATE INDEX retractions_of_runs ON retractions (run_id) WHERE run_id IS NOT NULL;

CREATE INDEX run_corrections_by_run ON run_corrections (run_id, corrected_at, uuid);

CREATE INDEX runs_by_environment ON runs (environment_id, tester, started_at);

CREATE UNIQUE INDEX runs_by_id_and_environment ON runs (id, environment_id);

CREATE INDEX runs_by_ingested_file ON runs (ingested_file_id);

CREATE INDEX runs_by_start ON runs (started_at, uuid);

-- MARK: - Views

CREATE VIEW capability_records AS
SELECT l.id AS environment_lack_id, l.kind, l.model, l.tool_build, l.tool_build_order, l.capability_id,
       k.name AS capability, l.status, l.source_id, s.url AS source_url, s.title AS source_title, l.reported_in, l.note,
       CASE l.model WHEN '*' THEN 'every ' || l.kind || ' model' ELSE l.model || ' ' || l.kind END
           || ' ' || l.status || ' ' || k.name
           || CASE WHEN l.tool_build = '' THEN '' ELSE ' from Xcode build ' || l.tool_build END AS statement,
       CASE l.model WHEN '*' THEN 'every ' || l.kind || ' model' ELSE l.model || ' ' || l.kind END
           || ' ' || l.status || ' ' || k.name
           || CASE WHEN l.tool_build = '' THEN '' ELSE ' from Xcode build ' || l.tool_build END
           || ' (' || coalesce(s.title, 'reported in ' || l.reported_in) || ')' AS summary,
       l.status || ' ' || k.name
           || CASE WHEN l.tool_build = '' THEN ' from the first Xcode build' ELSE ' from Xcode build ' || l.tool_build END
           || CASE l.model WHEN '*' THEN ' on every ' || l.kind || ' model' ELSE '' END
           || ' (' || coalesce(s.title, 'reported in ' || l.reported_in) || ')' AS short
FROM environment_lacks AS l
JOIN capabilities AS k ON k.id = l.capability_id
LEFT JOIN sources AS s ON s.id = l.source_id;

CREATE VIEW claim_device_needs AS
SELECT cc.claim_id, c.key AS claim_key, m.capability, m.kind, m.model, r.tool_build,
       r.source_url, r.source_title, r.reported_in, r.note, r.model AS record_model, r.summary
FROM claim_capabilities AS cc
JOIN claims AS c ON c.id = cc.claim_id
JOIN model_capabilities AS m ON m.capability_id = cc.capability_id AND m.kind = 'simulator' AND m.lacks
JOIN capability_records AS r ON r.environment_lack_id = m.environment_lack_id
WHERE (NOT EXISTS (SELECT 1 FROM claim_subjects AS s WHERE s.claim_id = cc.claim_id)
       OR EXISTS (SELECT 1 FROM claim_subjects AS s WHERE s.claim_id = cc.claim_id AND s.model = m.model));

CREATE VIEW claim_environment_gaps AS
SELECT cc.claim_id, g.environment_id, cc.capability_id, g.environment_lack_id
FROM claim_capabilities AS cc
JOIN environment_capabilities AS g ON g.capability_id = cc.capability_id
WHERE g.lacks;

CREATE VIEW claim_known_issues AS
SELECT s.key AS claim, s.document, c.owner, f.url, f.linked_at, f.failures
FROM claim_state AS s
JOIN live_claims AS c ON c.id = s.claim_id
JOIN failure_links AS f ON f.claim_id = s.claim_id
WHERE s.state = 'failing';

CREATE VIEW claim_mismatches AS
-- The claims that can have a problem, found cheaply first, so the state is
-- worked out for those only; their problems are claim_state's.
WITH s AS MATERIALIZED (
    SELECT st.claim_id, st.key, st.document, st.area, st.label, st.state, st.reason, st.label_problem,
           st.evidence_problem
    FROM live_claims AS c
    JOIN claim_state AS st ON st.claim_id = c.id
    WHERE c.label = 'measured'
       OR (c.label = 'sourced' AND NOT EXISTS (SELECT 1 FROM claim_sources AS x WHERE x.claim_id = c.id))
       OR EXISTS (SELECT 1 FROM counting_decisive_results AS l JOIN results AS r ON r.id = l.result_id
                  WHERE l.claim_id = c.id
                    AND (r.result = 'fail' OR (c.label = 'unverified' AND r.result = 'pass')))
)
SELECT claim_id, key, document, area, label, state, label AS kind, label_problem AS problem, reason
FROM s WHERE label_problem IS NOT NULL
UNION ALL
SELECT claim_id, key, document, area, label, state, 'failing', evidence_problem, reason
FROM s WHERE evidence_problem IS NOT NULL;

CREATE VIEW claim_state AS
WITH env AS MATERIALIZED (
    SELECT s.environment_id AS id, s.kind, s.model, s.description, s.is_current, s.newer_builds,
           e.os_version_order, e.os_build_order, e.tool_version_order, e.tool_build_order
    FROM environment_status AS s JOIN environments AS e ON e.id = s.environment_id
),
-- Each simulator model and capability it lacks as of the newest record.
simulator_gaps AS MATERIALIZED (
    SELECT model, capability_id, capability FROM model_capabilities WHERE kind = 'simulator' AND lacks
),
claim_facts AS (
    SELECT c.id AS claim_id, c.key, c.document, c.area, c.label, c.statement,
           EXISTS (SELECT 1 FROM claim_subjects AS m WHERE m.claim_id = c.id) AS has_subjects
    FROM claims AS c
),
-- What a claim's state rests on, read from each environment's result that
-- counts (counting_decisive_results). A current environment's failure, if
-- there is one; else the best current pass (of the current words, on a
-- device first); each the largest of
-- keys that sort by what matters, then by when the result was checked and
-- recorded, and end with its id. Only with neither, the newest decisive
-- result that counts: a failure, or a pass where every capability is present.
-- All read only the claim's own environments, so a query about some claims
-- works those out only.
current_evidence AS (
    SELECT f.*,
           (SELECT max(coalesce(r.checked_at, '') || ' ' || r.recorded_at || ' ' || printf('%019d', r.id))
            FROM counting_decisive_results AS l
            JOIN results AS r ON r.id = l.result_id
            JOIN env ON env.id = l.environment_id
            WHERE l.claim_id = f.claim_id AND env.is_current AND r.result = 'fail'
              AND (NOT f.has_subjects
                   OR EXISTS (SELECT 1 FROM claim_subjects AS m WHERE m.claim_id = f.claim_id AND m.model = env.model)))
               AS current_fail,
           (SELECT max(coalesce((SELECT s.statement FROM claim_statements AS s WHERE s.id = r.claim_statement_id)
                                = f.statement, 0)
                       || (env.kind = 'device') || ' ' || coalesce(r.checked_at, '') || ' ' || r.recorded_at || ' '
                       || printf('%019d', r.id))
            FROM counting_decisive_results AS l
            JOIN results AS r ON r.id = l.result_id
            JOIN env ON env.id = l.environment_id
            WHERE l.claim_id = f.claim_id AND env.is_current AND r.result = 'pass'
              AND (NOT f.has_subjects
                   OR EXISTS (SELECT 1 FROM claim_subjects AS m WHERE m.claim_id = f.claim_id AND m.model = env.model)))
               AS current_pass,
           (SELECT r.id FROM results AS r
             WHERE r.claim_id = f.claim_id
               AND NOT EXISTS (SELECT 1 FROM retractions AS x WHERE x.result_id = r.id OR x.run_id = r.run_id)
             ORDER BY r.recorded_at DESC, r.id DESC LIMIT 1) AS last_id
    FROM claim_facts AS f
),
decisions AS (
    SELECT d.*,
           coalesce(CAST(substr(coalesce(d.current_fail, d.current_pass), -19) AS INTEGER),
                    (SELECT r.id
                     FROM counting_decisive_results AS l
                     JOIN results AS r ON r.id = l.result_id
                     JOIN env ON env.id = l.environment_id
                     WHERE l.claim_id = d.claim_id
                       AND (NOT d.has_subjects
                            OR EXISTS (SELECT 1 FROM claim_subjects AS m
                                       WHERE m.claim_id = d.claim_id AND m.model = env.model))
                     ORDER BY env.os_version_order DESC, env.os_build_order DESC, env.tool_version_order DESC,
                              env.tool_build_order DESC, substr(coalesce(r.checked_at, r.recorded_at), 1, 10) DESC,
                              r.recorded_at DESC, r.id DESC
                     LIMIT 1)) AS decisive_id
    FROM current_evidence AS d
),
facts AS (
    SELECT d.*,
           -- The ids as joined, not d.decisive_id and d.last_id: each use of
           -- those would work them out again.
           decisive.id AS decisive_result_id, last.id AS last_result_id,
           decisive.result AS decisive_outcome, decisive.checked_at AS decisive_checked_at,
           substr(decisive_run.uuid, 1, 8) AS decisive_run, decisive_env.id AS decisive_environment_id,
           decisive_env.kind AS decisive_kind, decisive_env.model AS decisive_model,
           decisive_env.description AS decisive_environment, decisive_env.is_current AS decisive_is_current,
           decisive_env.newer_builds, last.result AS last_outcome, last.checked_at AS last_checked_at,
           -- A fail tied with a pass: on its day a result has no time, so the
           -- two cannot be ordered, and the fail decides.
           CASE WHEN decisive.result = 'fail'
                     AND EXISTS (SELECT 1 FROM results AS t INDEXED BY results_decisive
                                 WHERE t.claim_id = d.claim_id AND t.environment_id = decisive.environment_id
                                   AND t.result IN ('pass', 'fail') AND t.checked_at = substr(decisive.checked_at, 1, 10)
                                   AND NOT EXISTS (SELECT 1 FROM retractions AS x WHERE x.result_id = t.id OR x.run_id = t.run_id))
                     AND EXISTS (SELECT 1 FROM results AS p
                                 WHERE p.claim_id = d.claim_id AND p.environment_id = decisive.environment_id
                                   AND p.result = 'pass'
                                   AND substr(coalesce(p.checked_at, p.recorded_at), 1, 10) = substr(decisive.checked_at, 1, 10)
                                   AND NOT EXISTS (SELECT 1 FROM retractions AS x WHERE x.result_id = p.id OR x.run_id = p.run_id)
                                   AND NOT EXISTS (SELECT 1 FROM claim_environment_gaps AS g
                                                   WHERE g.claim_id = d.claim_id AND g.environment_id = p.environment_id))
                THEN substr(decisive.checked_at, 1, 10) END AS tied_day,
           coalesce((SELECT s.statement FROM claim_statements AS s WHERE s.id = decisive.claim_statement_id)
                    = d.statement, 0) AS decisive_current_words,
           (SELECT group_concat(capability, ', ') FROM (
                SELECT DISTINCT g.capability FROM claim_capabilities AS cc
                JOIN simulator_gaps AS g ON g.capability_id = cc.capability_id
                WHERE cc.claim_id = d.claim_id
                  AND (NOT d.has_subjects
                       OR EXISTS (SELECT 1 FROM claim_subjects AS m WHERE m.claim_id = d.claim_id AND m.model = g.model))
                ORDER BY g.capability)) AS simulator_lacks,
           (SELECT group_concat(model, ', ') FROM (
                SELECT m.model FROM claim_subjects AS m WHERE m.claim_id = d.claim_id ORDER BY m.model)) AS subjects,
           -- The issues linked to its standing failures since its newest standing
           -- pass (read from the links, which are few, only for a failure).
           CASE WHEN decisive.result = 'fail' THEN
               (SELECT group_concat(url, ', ') FROM (
                    SELECT DISTINCT l.url FROM result_links AS l CROSS JOIN results AS r ON r.id = l.result_id
                    WHERE r.claim_id = d.claim_id AND r.result = 'fail'
                      AND NOT EXISTS (SELECT 1 FROM retractions AS x WHERE x.result_id = r.id OR x.run_id = r.run_id)
                      AND r.recorded_at > coalesce((SELECT max(p.recorded_at) FROM results AS p
                                                    WHERE p.claim_id = d.claim_id AND p.result = 'pass'
                                                      AND NOT EXISTS (SELECT 1 FROM retractions AS x
                                                                      WHERE x.result_id = p.id OR x.run_id = p.run_id)), '')
                    ORDER BY l.url))
           END AS known_issues,
           -- Where a pass decides a stale claim, a fail of another environment
           -- on the identical builds (a simulator beside the device): named.
           CASE WHEN decisive.result = 'pass' THEN
               (SELECT fe.description || coalesce(' on ' || fr.checked_at, '')
                FROM counting_decisive_results AS l
                JOIN results AS fr ON fr.id = l.result_id
                JOIN env AS fe ON fe.id = l.environment_id
                WHERE l.claim_id = d.claim_id AND fr.result = 'fail' AND fe.id <> decisive_env.id
                  AND fe.model = decisive_env.model
                  AND fe.os_version_order = decisive_env.os_version_order AND fe.os_build_order = decisive_env.os_build_order
                  AND fe.tool_version_order = decisive_env.tool_version_order
                  AND fe.tool_build_order = decisive_env.tool_build_order
                ORDER BY coalesce(fr.checked_at, fr.recorded_at) DESC, fr.id DESC LIMIT 1)
           END AS same_builds_fail
    FROM decisions AS d
    LEFT JOIN results AS decisive ON decisive.id = d.decisive_id
    LEFT JOIN runs AS decisive_run ON decisive_run.id = decisive.run_id
    LEFT JOIN env AS decisive_env ON decisive_env.id = decisive.environment_id
    LEFT JOIN results AS last ON last.id = d.last_id
),
states AS (
SELECT
    f.claim_id, f.key, f.document, f.area, f.label,
    CASE
        WHEN f.decisive_outcome = 'fail' THEN 'failing'
        WHEN f.decisive_outcome = 'pass' AND f.decisive_is_current AND f.decisive_current_words
            THEN CASE f.decisive_kind WHEN 'device' THEN 'verified-on-device' ELSE 'verified-in-simulator' END
        WHEN f.decisive_result_id IS NOT NULL THEN 'stale'
        WHEN f.simulator_lacks IS NOT NULL THEN 'needs-device'
        ELSE 'untested'
    END AS state,
    CASE
        WHEN f.decisive_outcome = 'fail' AND f.decisive_is_current AND f.tied_day IS NOT NULL
            THEN 'failed and passed on ' || f.tied_day || ', order unknown (a result that day has no time), failed in run '
                 || f.decisive_run || ' on ' || f.decisive_environment
                 || coalesce('; known: ' || f.known_issues, '')
        WHEN f.decisive_outcome = 'fail' AND f.decisive_is_current
            THEN 'failed ' || coalesce('on ' || f.decisive_checked_at, 'on an unrecorded date')
                 || ' in run ' || f.decisive_run || ' on ' || f.decisive_environment
                 || coalesce('; known: ' || f.known_issues, '')
        WHEN f.decisive_outcome = 'fail'
            THEN 'failed ' || coalesce('on ' || f.decisive_checked_at, 'on an unrecorded date')
                 || ' in run ' || f.decisive_run || ' on ' || f.decisive_environment
                 || '; no pass or fail since on the newer builds recorded for ' || f.decisive_model || ' '
                 || f.decisive_kind || ': ' || f.newer_builds
                 || coalesce('; known: ' || f.known_issues, '')
        WHEN f.decisive_outcome = 'pass' AND f.decisive_is_current AND f.decisive_current_words
            THEN 'passed ' || coalesce('on ' || f.decisive_checked_at, 'on an unrecorded date')
                 || ' in run ' || f.decisive_run || ' on ' || f.decisive_environment
        WHEN f.decisive_result_id IS NOT NULL AND f.decisive_is_current
            THEN 'statement changed since run ' || f.decisive_run
                 || ' (it passed the earlier words ' || coalesce('on ' || f.decisive_checked_at, 'on an unrecorded date')
                 || ' on ' || f.decisive_environment || ')'
        WHEN f.decisive_result_id IS NOT NULL
            THEN 'last verified on ' || f.decisive_environment
                 || coalesce(' on ' || f.decisive_checked_at, ' on an unrecorded date')
                 || CASE WHEN f.decisive_current_words THEN '' ELSE ', of earlier words' END
                 || '; newer builds recorded for ' || f.decisive_model || ' ' || f.decisive_kind || ': '
                 || f.newer_builds
                 || coalesce('; failed on the same builds on ' || f.same_builds_fail, '')
        WHEN EXISTS (SELECT 1 FROM latest_decisive_results AS l
                     JOIN results AS r ON r.id = l.result_id
                     JOIN environments AS e ON e.id = l.environment_id
                     WHERE l.claim_id = f.claim_id AND r.result = 'pass'
                       AND (NOT f.has_subjects
                            OR EXISTS (SELECT 1 FROM claim_subjects AS m WHERE m.claim_id = f.claim_id AND m.model = e.model)))
            THEN 'passed only where a needed capability is missing'
                 || CASE WHEN f.simulator_lacks IS NOT NULL THEN ' (' || f.simulator_lacks || ')' ELSE '' END
        WHEN f.has_subjects AND EXISTS (SELECT 1 FROM latest_decisive_results AS l WHERE l.claim_id = f.claim_id)
            THEN CASE WHEN f.simulator_lacks IS NOT NULL
                      THEN 'needs ' || f.simulator_lacks || ', which the simulator lacks; ' ELSE '' END
                 || 'no pass or fail on ' || f.subjects || ' yet (results on other models do not count)'
        WHEN f.last_result_id IS NULL
            THEN CASE WHEN f.simulator_lacks IS NOT NULL
                      THEN 'needs ' || f.simulator_lacks || ', which the simulator lacks; ' ELSE '' END
                 || CASE WHEN EXISTS (SELECT 1 FROM results AS r WHERE r.claim_id = f.claim_id)
                         THEN 'no result that counts yet (every one was retracted)' ELSE 'no result yet' END
        WHEN f.simulator_lacks IS NOT NULL
            THEN 'needs ' || f.simulator_lacks || ', which the simulator lacks; last result '
                 || f.last_outcome || coalesce(' on ' || f.last_checked_at, '')
        ELSE 'no pass or fail yet; last result ' || f.last_outcome || coalesce(' on ' || f.last_checked_at, '')
    END AS reason,
    f.decisive_result_id,
    f.last_result_id,
    f.decisive_environment_id,
    f.label <> 'not-published' AS qa_work,
    -- 1 when the reason names the result it rests on ("… in run R on E"):
    -- a fail, or a pass of the current words in a current environment.
    coalesce(f.decisive_outcome = 'fail'
             OR (f.decisive_outcome = 'pass' AND f.decisive_is_current AND f.decisive_current_words), 0)
        AS reason_names_run,
    f.known_issues
FROM facts AS f
)
SELECT s.*,
       -- Where the label disagrees with the evidence (a mismatch).
       CASE
           WHEN s.label = 'measured' AND s.state NOT IN ('verified-on-device', 'verified-in-simulator')
               THEN 'labelled measured but has no current pass'
           WHEN s.label = 'sourced' AND NOT EXISTS (SELECT 1 FROM claim_sources AS x WHERE x.claim_id = s.claim_id)
               THEN 'labelled sourced but cites no source'
           WHEN s.label = 'unverified' AND s.state IN ('verified-on-device', 'verified-in-simulator')
               THEN 'labelled unverified but ' || s.state
       END AS label_problem,
       -- Where the evidence itself is the problem, whatever the label.
       CASE WHEN s.state = 'failing' THEN 'its latest decisive result failed' END AS evidence_problem
FROM states AS s;

CREATE VIEW counting_decisive_results AS
SELECT l.claim_id, l.environment_id, l.result_id
FROM latest_decisive_results AS l
-- A claim that needs no capability has no gap: the cheap test first, so that
-- the gaps' tables are only opened for the claims that need one.
WHERE NOT EXISTS (SELECT 1 FROM claim_capabilities AS cc WHERE cc.claim_id = l.claim_id)
   OR NOT EXISTS (SELECT 1 FROM claim_environment_gaps AS g
                  WHERE g.claim_id = l.claim_id AND g.environment_id = l.environment_id)
UNION ALL
SELECT l.claim_id, l.environment_id,
       (SELECT r.id FROM results AS r INDEXED BY results_decisive
        WHERE r.claim_id = l.claim_id AND r.environment_id = l.environment_id
          AND r.result IN ('pass', 'fail') AND r.result = 'fail'
          AND NOT EXISTS (SELECT 1 FROM retractions AS x WHERE x.result_id = r.id OR x.run_id = r.run_id)
        ORDER BY coalesce(r.checked_at, r.recorded_at) DESC, r.recorded_at DESC, r.id DESC LIMIT 1) AS result_id
FROM latest_decisive_results AS l
WHERE EXISTS (SELECT 1 FROM claim_capabilities AS cc WHERE cc.claim_id = l.claim_id)
  AND EXISTS (SELECT 1 FROM claim_environment_gaps AS g
              WHERE g.claim_id = l.claim_id AND g.environment_id = l.environment_id)
  AND EXISTS (SELECT 1 FROM results AS r INDEXED BY results_decisive
              WHERE r.claim_id = l.claim_id AND r.environment_id = l.environment_id
                AND r.result IN ('pass', 'fail') AND r.result = 'fail'
                AND NOT EXISTS (SELECT 1 FROM retractions AS x WHERE x.result_id = r.id OR x.run_id = r.run_id));

CREATE VIEW decisive_result_order AS
SELECT o.claim_id, o.environment_id,
       CASE WHEN w.result = 'pass'
            THEN coalesce(
                (SELECT f.id FROM results AS f INDEXED BY results_decisive
                 WHERE f.claim_id = o.claim_id AND f.environment_id = o.environment_id AND f.checked_at IS w.checked_at
                   AND f.result IN ('pass', 'fail') AND f.result = 'fail' AND f.run_id = w.run_id
                   AND NOT EXISTS (SELECT 1 FROM retractions AS x WHERE x.result_id = f.id OR x.run_id = f.run_id)
                 ORDER BY f.recorded_at DESC, f.id DESC LIMIT 1),
                w.id)
            ELSE o.result_id END AS result_id
FROM (
    SELECT d.claim_id, d.environment_id,
           CASE WHEN d.tied
                -- A result of the day has only its date: the day's results are
                -- tied, and the latest fail decides; with none, the latest pass.
                THEN (SELECT r.id FROM results AS r INDEXED BY results_decisive
                      WHERE r.claim_id = d.claim_id AND r.environment_id = d.environment_id
                        AND r.result IN ('pass', 'fail')
                        AND (substr(r.checked_at, 1, 10) = d.day
                             OR (r.checked_at IS NULL AND substr(r.recorded_at, 1, 10) = d.day))
                        AND NOT EXISTS (SELECT 1 FROM retractions AS x WHERE x.result_id = r.id OR x.run_id = r.run_id)
                      ORDER BY r.result = 'fail' DESC, coalesce(r.checked_at, r.recorded_at) DESC, r.recorded_at DESC,
                               r.id DESC
                      LIMIT 1)
                -- Every result of the day has a time: the latest by the clock,
                -- then by recording order.
                ELSE (SELECT r.id FROM results AS r INDEXED BY results_decisive
                      WHERE r.claim_id = d.claim_id AND r.environment_id = d.environment_id
                        AND r.result IN ('pass', 'fail')
                        AND (substr(r.checked_at, 1, 10) = d.day
                             OR (r.checked_at IS NULL AND substr(r.recorded_at, 1, 10) = d.day))
                        AND NOT EXISTS (SELECT 1 FROM retractions AS x WHERE x.result_id = r.id OR x.run_id = r.run_id)
                      ORDER BY substr(coalesce(r.checked_at, r.recorded_at), 1, 19) DESC, r.recorded_at DESC, r.id DESC
                      LIMIT 1)
           END AS result_id
    FROM (
        SELECT t.claim_id, t.environment_id, t.day,
               EXISTS (SELECT 1 FROM results AS r INDEXED BY results_decisive
                       WHERE r.claim_id = t.claim_id AND r.environment_id = t.environment_id
                         AND r.result IN ('pass', 'fail') AND r.checked_at = t.day
                         AND NOT EXISTS (SELECT 1 FROM retractions AS x WHERE x.result_id = r.id OR x.run_id = r.run_id))
                   AS tied
        FROM (
            -- The last day: of the dated results, and of the undated ones by when they were recorded.
            -- DISTINCT changes no row (p's pairs are distinct) but keeps SQLite from
            -- flattening this query into the ones above, which would work the day
            -- out again for every result the day is compared with.
            SELECT DISTINCT p.claim_id, p.environment_id,
                   max(coalesce((SELECT substr(r.checked_at, 1, 10) FROM results AS r INDEXED BY results_decisive
                                 WHERE r.claim_id = p.claim_id AND r.environment_id = p.environment_id
                                   AND r.result IN ('pass', 'fail') AND r.checked_at IS NOT NULL
                                   AND NOT EXISTS (SELECT 1 FROM retractions AS x
                                                   WHERE x.result_id = r.id OR x.run_id = r.run_id)
                                 ORDER BY r.checked_at DESC LIMIT 1), ''),
                       coalesce((SELECT substr(r.recorded_at, 1, 10) FROM results AS r INDEXED BY results_decisive
                                 WHERE r.claim_id = p.claim_id AND r.environment_id = p.environment_id
                                   AND r.result IN ('pass', 'fail') AND r.checked_at IS NULL
                                   AND NOT EXISTS (SELECT 1 FROM retractions AS x
                                                   WHERE x.result_id = r.id OR x.run_id = r.run_id)
                                 ORDER BY r.recorded_at DESC LIMIT 1), '')) AS day
            FROM (SELECT DISTINCT r.claim_id, r.environment_id FROM results AS r INDEXED BY results_decisive
                  WHERE r.claim_id IS NOT NULL AND r.result IN ('pass', 'fail')) AS p
        ) AS t
        WHERE t.day <> ''
    ) AS d
) AS o
LEFT JOIN results AS w ON w.id = o.result_id;

CREATE VIEW environment_capabilities AS
SELECT e.id AS environment_id, e.kind, e.model, e.tool_build, k.id AS capability_id, k.name AS capability,
       l.id AS environment_lack_id, l.status, l.status = 'lacks' AS lacks,
       CASE
           WHEN e.tool_build = '' AND l.status = 'lacks'
               THEN 'no Xcode build recorded, and a record says: '
           WHEN e.tool_build = ''
               THEN 'no Xcode build recorded, and every record says it has it: '
           WHEN l.tool_build_order > e.tool_build_order
               THEN 'Xcode build ' || e.tool_build || ' is older than every record, and the first says: '
           ELSE 'the newest record at or before Xcode build ' || e.tool_build || ' says: '
       END || r.short AS why
FROM environments AS e
JOIN capabilities AS k
JOIN environment_lacks AS l ON l.id = CASE WHEN e.tool_build = '' THEN coalesce(
        (SELECT x.id FROM environment_lacks AS x
          WHERE x.capability_id = k.id AND x.kind = e.kind AND x.model IN (e.model, '*') AND x.status = 'lacks'
          ORDER BY x.tool_build_order DESC, x.model = '*' LIMIT 1),
        (SELECT x.id FROM environment_lacks AS x
          WHERE x.capability_id = k.id AND x.kind = e.kind AND x.model IN (e.model, '*')
          ORDER BY x.tool_build_order DESC, x.model = '*' LIMIT 1))
    ELSE coalesce(
        (SELECT x.id FROM environment_lacks AS x
          WHERE x.capability_id = k.id AND x.kind = e.kind AND x.model IN (e.model, '*')
            AND x.tool_build_order <= e.tool_build_order
          ORDER BY x.tool_build_order DESC, x.model = '*' LIMIT 1),
        (SELECT x.id FROM environment_lacks AS x
          WHERE x.capability_id = k.id AND x.kind = e.kind AND x.model IN (e.model, '*')
          ORDER BY x.tool_build_order, x.model = '*' LIMIT 1))
    END
JOIN capability_records AS r ON r.environment_lack_id = l.id;

CREATE VIEW environment_status AS
WITH newest AS (
    SELECT e.id AS environment_id, (
        SELECT o.id FROM environments AS o INDEXED BY environments_newest_first
        WHERE o.kind = e.kind AND o.model = e.model AND o.id <> e.id
          AND ((CASE WHEN o.os_build <> '' AND e.os_build <> '' THEN o.os_build_order > e.os_build_order
                     ELSE o.os_version_order > e.os_version_order
                          OR (o.os_version_order = e.os_version_order AND o.os_build <> '' AND e.os_build = ''
                              AND NOT (e.kind = 'simulator' AND e.tool_build <> '' AND o.tool_build = e.tool_build)) END)
               OR (CASE WHEN o.tool_build <> '' AND e.tool_build <> '' THEN o.tool_build_order > e.tool_build_order
                        ELSE o.tool_version_order > e.tool_version_order
                             OR (o.tool_version_order = e.tool_version_order AND o.tool_build <> '' AND e.tool_build = '') END))
          -- It counts as recorded: a run that is not retracted and holds no
          -- results, or a result that is not retracted. A retracted run on a
          -- mistyped build never makes real evidence stale.
          AND EXISTS (
              SELECT 1 FROM runs AS u
              WHERE u.environment_id = o.id
                AND NOT EXISTS (SELECT 1 FROM retractions AS x WHERE x.run_id = u.id)
                AND (NOT EXISTS (SELECT 1 FROM results AS r WHERE r.run_id = u.id)
                     OR EXISTS (SELECT 1 FROM results AS r WHERE r.run_id = u.id
                                AND NOT EXISTS (SELECT 1 FROM retractions AS x WHERE x.result_id = r.id))))
        ORDER BY o.os_version_order DESC, o.os_build_order DESC, o.tool_version_order DESC, o.tool_build_order DESC, o.id DESC
        LIMIT 1) AS newest_id
    FROM environments AS e
),
flagged AS (
    SELECT w.environment_id, o.*,
           CASE WHEN o.os_build <> '' AND e.os_build <> '' THEN o.os_build_order > e.os_build_order
                ELSE o.os_version_order > e.os_version_order
                     OR (o.os_version_order = e.os_version_order AND o.os_build <> '' AND e.os_build = ''
                         AND NOT (e.kind = 'simulator' AND e.tool_build <> '' AND o.tool_build = e.tool_build)) END
               AS os_newer,
           CASE WHEN o.tool_build <> '' AND e.tool_build <> '' THEN o.tool_build_order > e.tool_build_order
                ELSE o.tool_version_order > e.tool_version_order
                     OR (o.tool_version_order = e.tool_version_order AND o.tool_build <> '' AND e.tool_build = '') END
               AS tool_newer
    FROM newest AS w
    JOIN environments AS e ON e.id = w.environment_id
    JOIN environments AS o ON o.id = w.newest_id
)
SELECT
    e.id AS environment_id,
    e.kind, e.model, e.os_name, e.os_version, e.os_build, e.tool_name, e.tool_version, e.tool_build,
    e.model || ' ' || e.kind
        || CASE WHEN e.os_name || e.os_version <> ''
                THEN ', ' || trim(e.os_name || ' ' || e.os_version) ELSE '' END
        || CASE WHEN e.os_build <> '' THEN ' (' || e.os_build || ')' ELSE '' END
        || CASE WHEN e.tool_name || e.tool_version <> ''
                THEN ', ' || trim(e.tool_name || ' ' || e.tool_version) ELSE '' END
        || CASE WHEN e.tool_build <> '' THEN ' (' || e.tool_build || ')' ELSE '' END
        AS description,
    CASE WHEN n.environment_id IS NULL THEN 1 ELSE 0 END AS is_current,
    n.id AS newest_environment_id,
    trim(CASE WHEN n.os_newer
              THEN 'OS ' || coalesce(nullif(trim(n.os_name || ' ' || n.os_version), ''), 'with no version')
                   || CASE WHEN n.os_build <> '' THEN ' (' || n.os_build || ')' ELSE '' END
              ELSE '' END
         || CASE WHEN n.tool_newer
                 THEN ' ' || coalesce(nullif(trim(n.tool_name || ' ' || n.tool_version), ''), 'tool with no version')
                      || CASE WHEN n.tool_build <> '' THEN ' (' || n.tool_build || ')' ELSE '' END
                 ELSE '' END) AS newer_builds
FROM environments AS e
LEFT JOIN flagged AS n ON n.environment_id = e.id;

CREATE VIEW failure_links AS
SELECT r.claim_id, c.key AS claim, l.url, min(l.linked_at) AS linked_at, count(*) AS failures
FROM result_links AS l
CROSS JOIN results AS r ON r.id = l.result_id
JOIN claims AS c ON c.id = r.claim_id
WHERE r.result = 'fail'
  AND NOT EXISTS (SELECT 1 FROM retractions AS x WHERE x.result_id = r.id OR x.run_id = r.run_id)
  AND r.recorded_at > coalesce((SELECT max(p.recorded_at) FROM results AS p
                                WHERE p.claim_id = r.claim_id AND p.result = 'pass'
                                  AND NOT EXISTS (SELECT 1 FROM retractions AS x
                                                  WHERE x.result_id = p.id OR x.run_id = p.run_id)), '')
GROUP BY r.claim_id, l.url;

CREATE VIEW latest_results AS
SELECT l.claim_id, c.key AS claim_key, l.environment_id, s.description AS environment,
       r.id AS result_id, r.uuid AS result_uuid, r.run_id, u.uuid AS run_uuid, r.result, r.posture,
       r.checked_at, r.recorded_at, r.note
FROM latest_decisive_results AS l
JOIN claims AS c ON c.id = l.claim_id
JOIN results AS r ON r.id = l.result_id
JOIN runs AS u ON u.id = r.run_id
JOIN environment_status AS s ON s.environment_id = l.environment_id;

CREATE VIEW live_claims AS
SELECT c.*
FROM claims AS c
WHERE c.id NOT IN (SELECT claim_id FROM retired_claims);

CREATE VIEW live_results AS
SELECT r.*
FROM results AS r
WHERE NOT EXISTS (SELECT 1 FROM retractions AS x WHERE x.result_id = r.id)
  AND NOT EXISTS (SELECT 1 FROM retractions AS x WHERE x.run_id = r.run_id);

CREATE VIEW measurement_deltas AS
SELECT
    m.id AS measurement_id, m.name, m.value, m.baseline,
    CASE WHEN m.baseline IS NULL THEN NULL ELSE m.value - m.baseline END AS delta,
    m.unit, coalesce(m.posture, r.posture) AS posture,
    r.id AS result_id, r.result, c.key AS claim_key, u.uuid AS run_uuid, r.checked_at,
    e.kind, e.model, s.description AS environment,
    EXISTS (SELECT 1 FROM retractions AS x WHERE x.result_id = r.id OR x.run_id = r.run_id) AS retracted
FROM measurements AS m
JOIN results AS r ON r.id = m.result_id
LEFT JOIN claims AS c ON c.id = r.claim_id
JOIN runs AS u ON u.id = r.run_id
JOIN environments AS e ON e.id = u.environment_id
JOIN environment_status AS s ON s.environment_id = e.id;

CREATE VIEW model_capabilities AS
WITH models (kind, model) AS (
    SELECT kind, model FROM environment_lacks
    UNION SELECT kind, model FROM environments
    UNION SELECT k.kind, m.model FROM claim_subjects AS m, (SELECT 'device' AS kind UNION ALL SELECT 'simulator') AS k
)
SELECT m.kind, m.model, k.id AS capability_id, k.name AS capability, l.id AS environment_lack_id, l.status,
       l.status = 'lacks' AS lacks
FROM models AS m
JOIN capabilities AS k
JOIN environment_lacks AS l ON l.id = (
    SELECT x.id FROM environment_lacks AS x
    WHERE x.capability_id = k.id AND x.kind = m.kind AND x.model IN (m.model, '*')
    ORDER BY x.tool_build_order DESC, x.model = '*' LIMIT 1);

CREATE VIEW retired_claims AS
SELECT x.claim_id, c.key, c.document, x.changed_by AS retired_by, x.changed_at AS retired_at, x.reason, x.uuid
FROM claim_retirements AS x
JOIN claims AS c ON c.id = x.claim_id
WHERE x.action = 'retire'
  AND NOT EXISTS (SELECT 1 FROM claim_retirements AS y
                  WHERE y.claim_id = x.claim_id AND (y.changed_at, y.uuid) > (x.changed_at, x.uuid));

CREATE VIEW untested_claims AS
SELECT s.claim_id, s.key, s.document, s.area, s.label, s.state, s.reason, s.qa_work
FROM live_claims AS c
JOIN claim_state AS s ON s.claim_id = c.id
WHERE NOT EXISTS (SELECT 1 FROM counting_decisive_results AS l
                  JOIN environments AS e ON e.id = l.environment_id
                  WHERE l.claim_id = c.id
                    AND (NOT EXISTS (SELECT 1 FROM claim_subjects AS m WHERE m.claim_id = c.id)
                         OR EXISTS (SELECT 1 FROM claim_subjects AS m WHERE m.claim_id = c.id AND m.model = e.model)))
  AND s.state IN ('untested', 'needs-device');

-- MARK: - Triggers

CREATE TRIGGER claim_renames_no_delete BEFORE DELETE ON claim_renames
BEGIN
    SELECT RAISE(ABORT, 'a rename is never deleted');
END;

CREATE TRIGGER claim_renames_no_update BEFORE UPDATE ON claim_renames
BEGIN
    SELECT RAISE(ABORT, 'a rename is never changed');
END;

CREATE TRIGGER claim_retirements_no_delete BEFORE DELETE ON claim_retirements
BEGIN
    SELECT RAISE(ABORT, 'a retirement is never deleted');
END;

CREATE TRIGGER claim_retirements_no_update BEFORE UPDATE ON claim_retirements
BEGIN
    SELECT RAISE(ABORT, 'a retirement is never changed');
END;

CREATE TRIGGER claim_statement_added AFTER INSERT ON claims
WHEN NOT EXISTS (SELECT 1 FROM claim_statements AS s WHERE s.claim_id = NEW.id AND s.statement = NEW.statement)
BEGIN
    INSERT INTO claim_statements (claim_id, statement, recorded_at)
    VALUES (NEW.id, NEW.statement, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'));
END;

CREATE TRIGGER claim_statement_changed AFTER UPDATE OF statement ON claims
WHEN NEW.statement IS NOT OLD.statement
 AND NOT EXISTS (SELECT 1 FROM claim_statements AS s
                 WHERE s.claim_id = NEW.id AND s.statement = NEW.statement
                   AND s.id = (SELECT max(t.id) FROM claim_statements AS t WHERE t.claim_id = NEW.id))
BEGIN
    INSERT INTO claim_statements (claim_id, statement, recorded_at)
    VALUES (NEW.id, NEW.statement, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'));
END;

CREATE TRIGGER label_history_no_delete BEFORE DELETE ON label_history
BEGIN
    SELECT RAISE(ABORT, 'label_history is append-only');
END;

CREATE TRIGGER label_history_no_update BEFORE UPDATE ON label_history
BEGIN
    SELECT RAISE(ABORT, 'label_history is append-only');
END;

CREATE TRIGGER latest_decisive_after_insert AFTER INSERT ON results
WHEN NEW.claim_id IS NOT NULL AND NEW.result IN ('pass', 'fail')
BEGIN
    INSERT INTO latest_decisive_results (claim_id, environment_id, result_id)
    SELECT claim_id, environment_id, result_id FROM decisive_result_order
    WHERE claim_id = NEW.claim_id AND environment_id = NEW.environment_id AND result_id IS NOT NULL
    ON CONFLICT (claim_id, environment_id) DO UPDATE SET result_id = excluded.result_id;
END;

CREATE TRIGGER latest_decisive_after_retraction AFTER INSERT ON retractions
BEGIN
    DELETE FROM latest_decisive_results
    WHERE EXISTS (SELECT 1 FROM results AS r
                  WHERE (r.id = NEW.result_id OR r.run_id = NEW.run_id)
                    AND r.claim_id = latest_decisive_results.claim_id
                    AND r.environment_id = latest_decisive_results.environment_id);
    INSERT INTO latest_decisive_results (claim_id, environment_id, result_id)
    SELECT o.claim_id, o.environment_id, o.result_id FROM decisive_result_order AS o
    WHERE EXISTS (SELECT 1 FROM results AS r
                  WHERE (r.id = NEW.result_id OR r.run_id = NEW.run_id)
                    AND r.claim_id = o.claim_id AND r.environment_id = o.environment_id)
      AND o.result_id IS NOT NULL;
END;

CREATE TRIGGER latest_decisive_after_update AFTER UPDATE ON results
BEGIN
    DELETE FROM latest_decisive_results
    WHERE (claim_id = OLD.claim_id AND environment_id = OLD.environment_id)
       OR (claim_id = NEW.claim_id AND environment_id = NEW.environment_id);
    INSERT INTO latest_decisive_results (claim_id, environment_id, result_id)
    SELECT claim_id, environment_id, result_id FROM decisive_result_order
    WHERE ((claim_id = OLD.claim_id AND environment_id = OLD.environment_id)
        OR (claim_id = NEW.claim_id AND environment_id = NEW.environment_id))
      AND result_id IS NOT NULL;
END;

CREATE TRIGGER result_unlinks_no_update BEFORE UPDATE ON result_unlinks
BEGIN
    SELECT RAISE(ABORT, 'an unlink is never changed');
END;

CREATE TRIGGER retractions_no_delete BEFORE DELETE ON retractions
BEGIN
    SELECT RAISE(ABORT, 'retractions are append-only');
END;

CREATE TRIGGER retractions_no_update BEFORE UPDATE ON retractions
BEGIN
    SELECT RAISE(ABORT, 'retractions are append-only');
END;

CREATE TRIGGER run_corrections_no_delete BEFORE DELETE ON run_corrections
BEGIN
    SELECT RAISE(ABORT, 'a correction is never deleted');
END;

CREATE TRIGGER run_corrections_no_update BEFORE UPDATE ON run_corrections
BEGIN
    SELECT RAISE(ABORT, 'a correction is never changed');
END;
