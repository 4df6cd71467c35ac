-- The schema of an evidence store at version 4, as a fresh store holds it:
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
    media_type TEXT NOT NULL CHECK (media_type GLOB '?*/?*'),
    UNIQUE (result_id, path)
) STRICT;

CREATE TABLE capabilities (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE
                CHECK (length(name) BETWEEN 1 AND 100
                       AND name GLOB '[a-z0-9]*'
                       AND name NOT GLOB '*[^a-z0-9-]*'),
    description TEXT NOT NULL CHECK (length(trim(description)) > 0)
) STRICT;

CREATE TABLE checklist_item_claims (
    checklist_item_id INTEGER NOT NULL REFERENCES checklist_items (id) ON DELETE CASCADE,
    claim_id          INTEGER NOT NULL REFERENCES claims (id) ON DELETE CASCADE,
    PRIMARY KEY (checklist_item_id, claim_id)
) STRICT, WITHOUT ROWID;

CREATE TABLE checklist_items (
    id              INTEGER PRIMARY KEY,
    checklist_id    INTEGER NOT NULL REFERENCES checklists (id) ON DELETE CASCADE,
    key             TEXT NOT NULL UNIQUE
                    CHECK (length(key) BETWEEN 1 AND 200
                           AND key GLOB '[A-Za-z0-9]*'
                           AND key NOT GLOB '*[^A-Za-z0-9._-]*'),
    position        INTEGER NOT NULL CHECK (position >= 1),
    text            TEXT NOT NULL CHECK (length(trim(text)) > 0),
    -- Set when someone marks the item untested on purpose.
    untested_reason TEXT,
    marked_by       TEXT,
    marked_at       TEXT,
    CHECK ((untested_reason IS NULL) = (marked_by IS NULL)
           AND (marked_by IS NULL) = (marked_at IS NULL)),
    UNIQUE (checklist_id, position)
) STRICT;

CREATE TABLE checklists (
    id       INTEGER PRIMARY KEY,
    document TEXT NOT NULL UNIQUE CHECK (length(trim(document)) > 0),
    title    TEXT NOT NULL CHECK (length(trim(title)) > 0)
) STRICT;

CREATE TABLE claim_capabilities (
    claim_id      INTEGER NOT NULL REFERENCES claims (id) ON DELETE CASCADE,
    capability_id INTEGER NOT NULL REFERENCES capabilities (id) ON DELETE RESTRICT,
    PRIMARY KEY (claim_id, capability_id)
) STRICT, WITHOUT ROWID;

CREATE TABLE claim_sources (
    id        INTEGER PRIMARY KEY,
    claim_id  INTEGER NOT NULL REFERENCES claims (id) ON DELETE CASCADE,
    source_id INTEGER NOT NULL REFERENCES sources (id) ON DELETE RESTRICT,
    locator   TEXT NOT NULL DEFAULT ''
              CHECK (locator = '' OR (locator GLOB '[?#]?*'
                     AND locator NOT GLOB ('*[' || char(9, 10, 13, 32) || ']*'))),
    UNIQUE (claim_id, source_id, locator)
) STRICT;

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
) STRICT;

CREATE TABLE environment_lacks (
    id            INTEGER PRIMARY KEY,
    kind          TEXT NOT NULL CHECK (kind IN ('device', 'simulator')),
    model         TEXT NOT NULL CHECK (length(trim(model)) > 0),
    tool_build    TEXT NOT NULL DEFAULT '',
    capability_id INTEGER NOT NULL REFERENCES capabilities (id) ON DELETE CASCADE,
    source_id     INTEGER REFERENCES sources (id) ON DELETE RESTRICT,
    reported_in   TEXT CHECK (reported_in IS NULL OR length(trim(reported_in)) > 0),
    note          TEXT NOT NULL DEFAULT '',
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
        END) STORED,
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

CREATE TABLE label_history (
    id         INTEGER PRIMARY KEY,
    claim_id   INTEGER NOT NULL REFERENCES claims (id) ON DELETE RESTRICT,
    old_label  TEXT CHECK (old_label IS NULL
                           OR old_label IN ('measured', 'unverified', 'not-published', 'sourced')),
    new_label  TEXT NOT NULL
               CHECK (new_label IN ('measured', 'unverified', 'not-published', 'sourced')),
    changed_by TEXT NOT NULL CHECK (length(trim(changed_by)) > 0),
    changed_at TEXT NOT NULL
               CHECK (changed_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z'
                      AND strftime('%Y-%m-%dT%H:%M:%SZ', julianday(changed_at)) = changed_at),
    reason     TEXT NOT NULL CHECK (length(trim(reason)) > 0)
) STRICT;

CREATE TABLE measurements (
    id        INTEGER PRIMARY KEY,
    result_id INTEGER NOT NULL REFERENCES results (id) ON DELETE CASCADE,
    name      TEXT NOT NULL CHECK (length(trim(name)) > 0),
    value     REAL NOT NULL,
    unit      TEXT NOT NULL
              CHECK (unit IN ('pt', 'px', 'mm', 'ms', 's', '%', 'count', 'fps', 'B', 'KB', 'MB')),
    baseline  REAL,
    posture   TEXT CHECK (posture IS NULL
                          OR posture IN ('closed', 'open', 'open-wide', 'book', 'portrait', 'landscape'))
) STRICT;

CREATE TABLE results (
    id         INTEGER PRIMARY KEY,
    run_id     INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    claim_id   INTEGER REFERENCES claims (id) ON DELETE RESTRICT,
    result     TEXT NOT NULL
               CHECK (result IN ('pass', 'fail', 'blocked', 'inconclusive', 'skipped')),
    posture    TEXT CHECK (posture IS NULL
                           OR posture IN ('closed', 'open', 'open-wide', 'book', 'portrait', 'landscape')),
    note       TEXT NOT NULL DEFAULT '',
    -- NULL when the document that reports the result gives no date.
    checked_at TEXT
               CHECK (checked_at IS NULL
                   OR (checked_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'
                       AND date(julianday(checked_at)) = checked_at)
                   OR (checked_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z'
                       AND strftime('%Y-%m-%dT%H:%M:%SZ', julianday(checked_at)) = checked_at)),
    test_id    TEXT CHECK (test_id IS NULL OR length(test_id) > 0),
    duration   REAL CHECK (duration IS NULL OR duration >= 0),
    message    TEXT,
    CHECK (claim_id IS NOT NULL OR test_id IS NOT NULL)
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
) STRICT;

CREATE TABLE test_mappings (
    id       INTEGER PRIMARY KEY,
    pattern  TEXT NOT NULL CHECK (length(pattern) > 0),
    claim_id INTEGER NOT NULL REFERENCES claims (id) ON DELETE CASCADE,
    UNIQUE (pattern, claim_id)
) STRICT;

-- MARK: - Indexes

CREATE INDEX checklist_item_claims_by_claim ON checklist_item_claims (claim_id);

CREATE INDEX claim_capabilities_by_capability ON claim_capabilities (capability_id);

CREATE INDEX claim_sources_by_source ON claim_sources (source_id);

CREATE INDEX claims_by_document ON claims (document, area, key);

CREATE INDEX claims_by_label ON claims (label);

CREATE INDEX environment_lacks_by_capability ON environment_lacks (capability_id, kind, model);

CREATE INDEX environments_by_model ON environments (kind, model, os_build_order, tool_build_order);

CREATE INDEX label_history_by_claim ON label_history (claim_id, changed_at);

CREATE INDEX measurements_by_name ON measurements (name);

CREATE INDEX measurements_by_result ON measurements (result_id);

CREATE INDEX results_by_claim ON results (claim_id, checked_at);

CREATE INDEX results_by_claim_outcome ON results (claim_id, result, checked_at);

CREATE INDEX results_by_run ON results (run_id);

CREATE INDEX runs_by_environment ON runs (environment_id, tester, started_at);

CREATE INDEX runs_by_ingested_file ON runs (ingested_file_id);

CREATE INDEX runs_by_start ON runs (started_at, uuid);

-- MARK: - Views

CREATE VIEW claim_device_needs AS
SELECT
    cc.claim_id, c.key AS claim_key, k.name AS capability, l.kind, l.model, l.tool_build,
    s.url AS source_url, s.title AS source_title, l.reported_in, l.note
FROM claim_capabilities AS cc
JOIN claims AS c ON c.id = cc.claim_id
JOIN capabilities AS k ON k.id = cc.capability_id
JOIN environment_lacks AS l ON l.capability_id = cc.capability_id AND l.kind = 'simulator'
LEFT JOIN sources AS s ON s.id = l.source_id;

CREATE VIEW claim_environment_gaps AS
SELECT cc.claim_id, e.id AS environment_id, cc.capability_id, l.id AS environment_lack_id
FROM claim_capabilities AS cc
JOIN environment_lacks AS l ON l.capability_id = cc.capability_id
JOIN environments AS e
  ON e.kind = l.kind AND e.model = l.model AND (l.tool_build = '' OR l.tool_build = e.tool_build);

CREATE VIEW claim_mismatches AS
WITH facts AS MATERIALIZED (
    SELECT c.id AS claim_id, c.label,
           EXISTS (SELECT 1 FROM results AS r WHERE r.claim_id = c.id AND r.result = 'pass') AS has_pass,
           EXISTS (SELECT 1 FROM claim_sources AS x WHERE x.claim_id = c.id) AS has_source,
           (SELECT r.result FROM results AS r WHERE r.claim_id = c.id
             ORDER BY r.checked_at DESC, r.id DESC LIMIT 1) AS latest
    FROM claims AS c
),
problems (claim_id, kind) AS (
    SELECT claim_id, 'measured without a pass' FROM facts WHERE label = 'measured' AND NOT has_pass
    UNION ALL
    SELECT claim_id, 'sourced without a source' FROM facts WHERE label = 'sourced' AND NOT has_source
    UNION ALL
    SELECT claim_id, 'failing' FROM facts WHERE latest = 'fail'
    UNION ALL
    SELECT claim_id, 'unverified but verified' FROM facts WHERE label = 'unverified' AND has_pass
)
SELECT s.claim_id, s.key, s.document, s.area, s.label, s.state,
       CASE p.kind
           WHEN 'measured without a pass' THEN 'labelled measured but has no passing result'
           WHEN 'sourced without a source' THEN 'labelled sourced but cites no source'
           WHEN 'failing' THEN 'latest result failed: ' || s.reason
           ELSE 'labelled unverified but ' || s.state || ': ' || s.reason
       END AS problem
FROM problems AS p
JOIN claim_state AS s ON s.claim_id = p.claim_id
WHERE p.kind <> 'unverified but verified' OR s.state IN ('verified-on-device', 'verified-in-simulator');

CREATE VIEW claim_state AS
WITH env AS MATERIALIZED (
    SELECT environment_id AS id, kind, model, os_build, tool_name, tool_build, description,
           newest_os_build, newest_tool_build, is_current
    FROM environment_status
)
SELECT
    c.id AS claim_id, c.key, c.document, c.area, c.label,
    CASE
        WHEN latest.id IS NULL
            THEN CASE WHEN EXISTS (
                     SELECT 1 FROM claim_capabilities AS cc
                     JOIN environment_lacks AS l ON l.capability_id = cc.capability_id AND l.kind = 'simulator'
                     WHERE cc.claim_id = c.id)
                 THEN 'needs-device' ELSE 'untested' END
        WHEN latest.result = 'fail' THEN 'failing'
        WHEN verified.id IS NOT NULL AND verified_env.is_current = 1
            THEN CASE verified_env.kind WHEN 'device' THEN 'verified-on-device' ELSE 'verified-in-simulator' END
        WHEN verified.id IS NOT NULL THEN 'stale'
        WHEN EXISTS (SELECT 1 FROM results AS r WHERE r.claim_id = c.id AND r.result = 'pass')
          OR EXISTS (
                SELECT 1 FROM claim_capabilities AS cc
                JOIN environment_lacks AS l ON l.capability_id = cc.capability_id AND l.kind = 'simulator'
                WHERE cc.claim_id = c.id)
            THEN 'needs-device'
        ELSE 'untested'
    END AS state,
    CASE
        WHEN latest.id IS NULL AND needs.names IS NOT NULL
            THEN 'needs ' || needs.names || ', which the simulator lacks; no result yet'
        WHEN latest.id IS NULL THEN 'no result yet'
        WHEN latest.result = 'fail'
            THEN 'failed ' || coalesce('on ' || latest.checked_at, 'on an unrecorded date')
                 || ' in run ' || substr(latest_run.uuid, 1, 8) || ' on ' || latest_env.description
        WHEN verified.id IS NOT NULL AND verified_env.is_current = 1
            THEN 'passed ' || coalesce('on ' || verified.checked_at, 'on an unrecorded date')
                 || ' in run ' || substr(verified_run.uuid, 1, 8) || ' on ' || verified_env.description
        WHEN verified.id IS NOT NULL
            THEN 'last verified on ' || verified_env.description
                 || coalesce(' on ' || verified.checked_at, ' on an unrecorded date')
                 || '; newer builds recorded for ' || verified_env.model || ' ' || verified_env.kind || ':'
                 || CASE WHEN verified_env.os_build <> '' AND verified_env.newest_os_build <> verified_env.os_build
                         THEN ' OS ' || verified_env.newest_os_build ELSE '' END
                 || CASE WHEN verified_env.tool_build <> '' AND verified_env.newest_tool_build <> verified_env.tool_build
                         THEN ' ' || CASE WHEN verified_env.tool_name <> '' THEN verified_env.tool_name ELSE 'tool' END
                              || ' ' || verified_env.newest_tool_build ELSE '' END
        WHEN EXISTS (SELECT 1 FROM results AS r WHERE r.claim_id = c.id AND r.result = 'pass')
            THEN 'passed only where a needed capability is missing'
                 || CASE WHEN needs.names IS NOT NULL THEN ' (' || needs.names || ')' ELSE '' END
        WHEN needs.names IS NOT NULL
            THEN 'needs ' || needs.names || ', which the simulator lacks; latest result '
                 || latest.result || coalesce(' on ' || latest.checked_at, '')
        ELSE 'no pass or fail yet; latest result ' || latest.result || coalesce(' on ' || latest.checked_at, '')
    END AS reason,
    latest.id AS latest_result_id,
    verified.id AS verified_result_id,
    verified_env.id AS verified_environment_id
FROM claims AS c
-- The latest result: one probe of results_by_claim, newest first.
LEFT JOIN results AS latest ON latest.id = (
    SELECT r.id FROM results AS r WHERE r.claim_id = c.id ORDER BY r.checked_at DESC, r.id DESC LIMIT 1)
LEFT JOIN runs AS latest_run ON latest_run.id = latest.run_id
LEFT JOIN env AS latest_env ON latest_env.id = latest_run.environment_id
-- The best pass in an environment that has every capability the claim needs:
-- on a current device, else a current simulator, else any (stale). Each probe
-- walks the claim's passes newest first and stops at the first that fits.
LEFT JOIN results AS verified ON verified.id = coalesce(
    (SELECT r.id FROM results AS r JOIN runs AS u ON u.id = r.run_id JOIN env AS e ON e.id = u.environment_id
      WHERE r.claim_id = c.id AND r.result = 'pass' AND e.kind = 'device' AND e.is_current = 1
        AND NOT EXISTS (SELECT 1 FROM claim_environment_gaps AS g
                         WHERE g.claim_id = c.id AND g.environment_id = e.id)
      ORDER BY r.checked_at DESC, r.id DESC LIMIT 1),
    (SELECT r.id FROM results AS r JOIN runs AS u ON u.id = r.run_id JOIN env AS e ON e.id = u.environment_id
      WHERE r.claim_id = c.id AND r.result = 'pass' AND e.kind = 'simulator' AND e.is_current = 1
        AND NOT EXISTS (SELECT 1 FROM claim_environment_gaps AS g
                         WHERE g.claim_id = c.id AND g.environment_id = e.id)
      ORDER BY r.checked_at DESC, r.id DESC LIMIT 1),
    (SELECT r.id FROM results AS r JOIN runs AS u ON u.id = r.run_id
      WHERE r.claim_id = c.id AND r.result = 'pass'
        AND NOT EXISTS (SELECT 1 FROM claim_environment_gaps AS g
                         WHERE g.claim_id = c.id AND g.environment_id = u.environment_id)
      ORDER BY r.checked_at DESC, r.id DESC LIMIT 1))
LEFT JOIN runs AS verified_run ON verified_run.id = verified.run_id
LEFT JOIN env AS verified_env ON verified_env.id = verified_run.environment_id
-- The capabilities the claim needs that a simulator lacks, for the reason.
LEFT JOIN (
    SELECT cc.claim_id, group_concat(k.name, ', ') AS names
    FROM (SELECT DISTINCT cc.claim_id, cc.capability_id FROM claim_capabilities AS cc
          JOIN environment_lacks AS l ON l.capability_id = cc.capability_id AND l.kind = 'simulator') AS cc
    JOIN capabilities AS k ON k.id = cc.capability_id
    GROUP BY cc.claim_id
) AS needs ON needs.claim_id = c.id;

CREATE VIEW environment_status AS
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
    (SELECT o.os_build FROM environments AS o
      WHERE o.kind = e.kind AND o.model = e.model AND o.os_build <> ''
      ORDER BY o.os_build_order DESC LIMIT 1) AS newest_os_build,
    (SELECT o.tool_build FROM environments AS o
      WHERE o.kind = e.kind AND o.model = e.model AND o.tool_build <> ''
      ORDER BY o.tool_build_order DESC LIMIT 1) AS newest_tool_build,
    CASE WHEN (e.os_build <> '' AND EXISTS (
                  SELECT 1 FROM environments AS o
                   WHERE o.kind = e.kind AND o.model = e.model AND o.os_build_order > e.os_build_order))
           OR (e.tool_build <> '' AND EXISTS (
                  SELECT 1 FROM environments AS o
                   WHERE o.kind = e.kind AND o.model = e.model AND o.tool_build_order > e.tool_build_order))
         THEN 0 ELSE 1 END AS is_current
FROM environments AS e;

CREATE VIEW latest_results AS
SELECT
    ranked.claim_id, c.key AS claim_key, ranked.environment_id, s.description AS environment,
    ranked.result_id, ranked.run_id, u.uuid AS run_uuid, ranked.result, ranked.posture,
    ranked.checked_at, ranked.note
FROM (
    SELECT r.claim_id, u.environment_id, r.id AS result_id, r.run_id, r.result, r.posture,
           r.checked_at, r.note,
           row_number() OVER (PARTITION BY r.claim_id, u.environment_id
                              ORDER BY r.checked_at DESC, r.id DESC) AS rank
    FROM results AS r
    JOIN runs AS u ON u.id = r.run_id
    WHERE r.claim_id IS NOT NULL
) AS ranked
JOIN claims AS c ON c.id = ranked.claim_id
JOIN runs AS u ON u.id = ranked.run_id
JOIN environment_status AS s ON s.environment_id = ranked.environment_id
WHERE ranked.rank = 1;

CREATE VIEW measurement_deltas AS
SELECT
    m.id AS measurement_id, m.name, m.value, m.baseline,
    CASE WHEN m.baseline IS NULL THEN NULL ELSE m.value - m.baseline END AS delta,
    m.unit, coalesce(m.posture, r.posture) AS posture,
    r.id AS result_id, r.result, c.key AS claim_key, u.uuid AS run_uuid, r.checked_at,
    e.kind, e.model, s.description AS environment
FROM measurements AS m
JOIN results AS r ON r.id = m.result_id
LEFT JOIN claims AS c ON c.id = r.claim_id
JOIN runs AS u ON u.id = r.run_id
JOIN environments AS e ON e.id = u.environment_id
JOIN environment_status AS s ON s.environment_id = e.id;

CREATE VIEW untested_claims AS
SELECT s.claim_id, s.key, s.document, s.area, s.label, s.state, s.reason
FROM claims AS c
JOIN claim_state AS s ON s.claim_id = c.id
WHERE NOT (
        (NOT EXISTS (SELECT 1 FROM claim_capabilities AS cc WHERE cc.claim_id = c.id)
         AND EXISTS (SELECT 1 FROM results AS r WHERE r.claim_id = c.id AND r.result = 'pass'))
     OR EXISTS (SELECT 1 FROM results AS r JOIN runs AS u ON u.id = r.run_id
                WHERE r.claim_id = c.id AND r.result = 'pass'
                  AND NOT EXISTS (SELECT 1 FROM claim_environment_gaps AS g
                                  WHERE g.claim_id = c.id AND g.environment_id = u.environment_id)))
  AND s.state IN ('untested', 'needs-device');

-- MARK: - Triggers

CREATE TRIGGER label_history_no_delete BEFORE DELETE ON label_history
BEGIN
    SELECT RAISE(ABORT, 'label_history is append-only');
END;

CREATE TRIGGER label_history_no_update BEFORE UPDATE ON label_history
BEGIN
    SELECT RAISE(ABORT, 'label_history is append-only');
END;
