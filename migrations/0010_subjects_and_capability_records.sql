-- What needs a device stays true when a new Xcode, a missing build or another
-- model arrives.
--
-- * Claims speak about models (claim_subjects): only results on a claim's
--   subjects decide its state; a claim with none speaks about any model.
--   A document can carry default subjects for its new claims
--   (document_subjects).
-- * A record of what an environment lacks (environment_lacks) holds for its
--   kind and model, or for every model of the kind (model '*'), from its
--   Xcode build onward, until a later record says otherwise: a record can
--   now also say the capability is there (status 'has'). For an environment,
--   the record with the newest build at or before its own decides; before
--   the first record, the first decides; an environment with no Xcode build
--   lacks a capability when any record for its kind and model says so.
--   Unknown never proves a capability. environment_capabilities works this
--   out for every environment.
-- * When no current environment has a decisive result, the newest decisive
--   result (by build, then by day, then by recording order) decides: a fail
--   reads failing, a pass stale.
--
-- Every row is kept.

DROP VIEW claim_mismatches;
DROP VIEW untested_claims;
DROP VIEW claim_state;
DROP VIEW claim_device_needs;
DROP VIEW claim_environment_gaps;

-- MARK: - The models a claim speaks about

CREATE TABLE claim_subjects (
    claim_id INTEGER NOT NULL REFERENCES claims (id) ON DELETE CASCADE,
    model    TEXT NOT NULL CHECK (length(trim(model)) > 0 AND model <> '*'),
    PRIMARY KEY (claim_id, model)
) STRICT, WITHOUT ROWID;

CREATE INDEX claim_subjects_by_model ON claim_subjects (model);

-- The subjects a document's new claims get when none are given.
CREATE TABLE document_subjects (
    document TEXT NOT NULL CHECK (length(trim(document)) > 0),
    model    TEXT NOT NULL CHECK (length(trim(model)) > 0 AND model <> '*'),
    PRIMARY KEY (document, model)
) STRICT, WITHOUT ROWID;

-- MARK: - Capability records that carry forward

CREATE TABLE new_environment_lacks (
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
    note             TEXT NOT NULL DEFAULT '',
    CHECK ((source_id IS NULL) <> (reported_in IS NULL)),
    UNIQUE (kind, model, tool_build, capability_id)
) STRICT;

INSERT INTO new_environment_lacks (id, kind, model, tool_build, capability_id, status, source_id, reported_in, note)
SELECT id, kind, model, tool_build, capability_id, 'lacks', source_id, reported_in, note FROM environment_lacks;

DROP TABLE environment_lacks;
ALTER TABLE new_environment_lacks RENAME TO environment_lacks;

CREATE INDEX environment_lacks_by_capability ON environment_lacks (capability_id, kind, model, tool_build_order);

-- MARK: - Editable records exchanged: documents too

CREATE TABLE new_exchanged_records (
    kind TEXT NOT NULL
         CHECK (kind IN ('source', 'capability', 'claim', 'lack', 'checklist', 'checklist item', 'document')),
    key  TEXT NOT NULL CHECK (length(key) > 0),
    line TEXT NOT NULL CHECK (line GLOB '{*}'),
    PRIMARY KEY (kind, key)
) STRICT, WITHOUT ROWID;

INSERT INTO new_exchanged_records (kind, key, line) SELECT kind, key, line FROM exchanged_records;
DROP TABLE exchanged_records;
ALTER TABLE new_exchanged_records RENAME TO exchanged_records;

-- MARK: - Views

-- A capability record as people read it: statement "iPhone Duo simulator
-- lacks standby from Xcode build 27A9275"; summary, with who says so, "…
-- (Xcode 27.1 Release Notes)"; and short, what it says of an environment it
-- covers, "lacks standby from Xcode build 27A9275 (Xcode 27.1 Release Notes)".
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

-- For each environment and each capability that some record speaks of for
-- its kind and model (or every model of its kind): whether it lacks it, the
-- record that decides, and why that one. The record with the newest Xcode
-- build at or before the environment's decides (a model's own record before
-- one for every model, on the same build); before the first record, the
-- first decides; with no Xcode build, any record that says it lacks it
-- decides. Unknown never proves a capability.
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

-- What each model of each kind has or lacks as of the newest record: the
-- record with the newest Xcode build for the model or for every model of its
-- kind (the model's own first on the same build). Models are those a record,
-- an environment or a claim's subjects name; '*' stands for any model no
-- record names.
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

-- For each claim and environment: a capability the claim needs that the
-- environment lacks, and the record that says so.
CREATE VIEW claim_environment_gaps AS
SELECT cc.claim_id, g.environment_id, cc.capability_id, g.environment_lack_id
FROM claim_capabilities AS cc
JOIN environment_capabilities AS g ON g.capability_id = cc.capability_id
WHERE g.lacks;

-- For claims that need a capability the simulator of one of their subjects
-- (any model, for a claim with none) lacks as of the newest record: which,
-- for which model, and who says so.
CREATE VIEW claim_device_needs AS
SELECT cc.claim_id, c.key AS claim_key, m.capability, m.kind, m.model, r.tool_build,
       r.source_url, r.source_title, r.reported_in, r.note, r.model AS record_model, r.summary
FROM claim_capabilities AS cc
JOIN claims AS c ON c.id = cc.claim_id
JOIN model_capabilities AS m ON m.capability_id = cc.capability_id AND m.kind = 'simulator' AND m.lacks
JOIN capability_records AS r ON r.environment_lack_id = m.environment_lack_id
WHERE (NOT EXISTS (SELECT 1 FROM claim_subjects AS s WHERE s.claim_id = cc.claim_id)
       OR EXISTS (SELECT 1 FROM claim_subjects AS s WHERE s.claim_id = cc.claim_id AND s.model = m.model));

-- Each claim's verification state, derived from its results and nothing
-- else, from each environment's latest decisive result
-- (latest_decisive_results) on the claim's subjects (any model, when it has
-- none):
--   failing                the latest decisive result of a current environment is a fail,
--                          or, with no decisive result in a current environment, the
--                          newest decisive result is a fail
--   verified-on-device     a current device's is a pass, where every capability the claim
--                          needs is present, of the claim's current words
--   verified-in-simulator  the same on a current simulator
--   stale                  a pass where every capability is present, but of other words,
--                          or on builds older than the newest recorded
--   needs-device           needs a capability the simulator of its subjects lacks as of the
--                          newest record, and has none of these
--   untested               none of these: no result, or no pass and no fail
-- "Newest" orders environments by OS version, OS build, Xcode version and
-- Xcode build as Apple numbers them, then results by day, then by the order
-- they were recorded in. Skipped, blocked and inconclusive results never
-- replace a decisive one; retracted results count for nothing; results on
-- other models are never counted. decisive_result_id is the result the state
-- rests on; last_result_id the last one recorded, whatever its outcome.
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
-- What a claim's state rests on. A current environment's failure, if there
-- is one; else the best current pass where every capability the claim needs
-- is present (of the current words, on a device first); each the largest of
-- keys that sort by what matters, then by when the result was checked and
-- recorded, and end with its id. Only with neither, the newest decisive
-- result: a failure anywhere, or a pass where every capability is present.
-- All read only the claim's own environments, so a query about some claims
-- works those out only.
current_evidence AS (
    SELECT f.*,
           (SELECT max(coalesce(r.checked_at, '') || ' ' || r.recorded_at || ' ' || printf('%019d', r.id))
            FROM latest_decisive_results AS l
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
            FROM latest_decisive_results AS l
            JOIN results AS r ON r.id = l.result_id
            JOIN env ON env.id = l.environment_id
            WHERE l.claim_id = f.claim_id AND env.is_current AND r.result = 'pass'
              AND (NOT f.has_subjects
                   OR EXISTS (SELECT 1 FROM claim_subjects AS m WHERE m.claim_id = f.claim_id AND m.model = env.model))
              AND NOT EXISTS (SELECT 1 FROM claim_environment_gaps AS g
                              WHERE g.claim_id = f.claim_id AND g.environment_id = env.id))
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
                     FROM latest_decisive_results AS l
                     JOIN results AS r ON r.id = l.result_id
                     JOIN env ON env.id = l.environment_id
                     WHERE l.claim_id = d.claim_id
                       AND (NOT d.has_subjects
                            OR EXISTS (SELECT 1 FROM claim_subjects AS m
                                       WHERE m.claim_id = d.claim_id AND m.model = env.model))
                       AND (r.result = 'fail'
                            OR NOT EXISTS (SELECT 1 FROM claim_environment_gaps AS g
                                           WHERE g.claim_id = d.claim_id AND g.environment_id = env.id))
                     ORDER BY env.os_version_order DESC, env.os_build_order DESC, env.tool_version_order DESC,
                              env.tool_build_order DESC, substr(coalesce(r.checked_at, ''), 1, 10) DESC,
                              r.recorded_at DESC, r.id DESC
                     LIMIT 1)) AS decisive_id
    FROM current_evidence AS d
),
facts AS (
    SELECT d.*, decisive.result AS decisive_outcome, decisive.checked_at AS decisive_checked_at,
           substr(decisive_run.uuid, 1, 8) AS decisive_run, decisive_env.id AS decisive_environment_id,
           decisive_env.kind AS decisive_kind, decisive_env.model AS decisive_model,
           decisive_env.description AS decisive_environment, decisive_env.is_current AS decisive_is_current,
           decisive_env.newer_builds, last.result AS last_outcome, last.checked_at AS last_checked_at,
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
                SELECT m.model FROM claim_subjects AS m WHERE m.claim_id = d.claim_id ORDER BY m.model)) AS subjects
    FROM decisions AS d
    LEFT JOIN results AS decisive ON decisive.id = d.decisive_id
    LEFT JOIN runs AS decisive_run ON decisive_run.id = decisive.run_id
    LEFT JOIN env AS decisive_env ON decisive_env.id = decisive.environment_id
    LEFT JOIN results AS last ON last.id = d.last_id
)
SELECT
    f.claim_id, f.key, f.document, f.area, f.label,
    CASE
        WHEN f.decisive_outcome = 'fail' THEN 'failing'
        WHEN f.decisive_outcome = 'pass' AND f.decisive_is_current AND f.decisive_current_words
            THEN CASE f.decisive_kind WHEN 'device' THEN 'verified-on-device' ELSE 'verified-in-simulator' END
        WHEN f.decisive_id IS NOT NULL THEN 'stale'
        WHEN f.simulator_lacks IS NOT NULL THEN 'needs-device'
        ELSE 'untested'
    END AS state,
    CASE
        WHEN f.decisive_outcome = 'fail' AND f.decisive_is_current
            THEN 'failed ' || coalesce('on ' || f.decisive_checked_at, 'on an unrecorded date')
                 || ' in run ' || f.decisive_run || ' on ' || f.decisive_environment
        WHEN f.decisive_outcome = 'fail'
            THEN 'failed ' || coalesce('on ' || f.decisive_checked_at, 'on an unrecorded date')
                 || ' in run ' || f.decisive_run || ' on ' || f.decisive_environment
                 || '; no pass or fail since on the newer builds recorded for ' || f.decisive_model || ' '
                 || f.decisive_kind || ': ' || f.newer_builds
        WHEN f.decisive_outcome = 'pass' AND f.decisive_is_current AND f.decisive_current_words
            THEN 'passed ' || coalesce('on ' || f.decisive_checked_at, 'on an unrecorded date')
                 || ' in run ' || f.decisive_run || ' on ' || f.decisive_environment
        WHEN f.decisive_id IS NOT NULL AND f.decisive_is_current
            THEN 'statement changed since run ' || f.decisive_run
                 || ' (it passed the earlier words ' || coalesce('on ' || f.decisive_checked_at, 'on an unrecorded date')
                 || ' on ' || f.decisive_environment || ')'
        WHEN f.decisive_id IS NOT NULL
            THEN 'last verified on ' || f.decisive_environment
                 || coalesce(' on ' || f.decisive_checked_at, ' on an unrecorded date')
                 || CASE WHEN f.decisive_current_words THEN '' ELSE ', of earlier words' END
                 || '; newer builds recorded for ' || f.decisive_model || ' ' || f.decisive_kind || ': '
                 || f.newer_builds
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
        WHEN f.last_id IS NULL
            THEN CASE WHEN f.simulator_lacks IS NOT NULL
                      THEN 'needs ' || f.simulator_lacks || ', which the simulator lacks; ' ELSE '' END
                 || CASE WHEN EXISTS (SELECT 1 FROM results AS r WHERE r.claim_id = f.claim_id)
                         THEN 'no result that counts yet (every one was retracted)' ELSE 'no result yet' END
        WHEN f.simulator_lacks IS NOT NULL
            THEN 'needs ' || f.simulator_lacks || ', which the simulator lacks; last result '
                 || f.last_outcome || coalesce(' on ' || f.last_checked_at, '')
        ELSE 'no pass or fail yet; last result ' || f.last_outcome || coalesce(' on ' || f.last_checked_at, '')
    END AS reason,
    f.decisive_id AS decisive_result_id,
    f.last_id AS last_result_id,
    f.decisive_environment_id,
    f.label <> 'not-published' AS qa_work
FROM facts AS f;

-- What a lead asks every week: claims with no usable evidence yet. A claim
-- with a failure on its subjects, or a pass there where every capability it
-- needs is present, is failing, verified or stale, never untested: that test,
-- a probe or two for most claims, runs before the state is worked out.
CREATE VIEW untested_claims AS
SELECT s.claim_id, s.key, s.document, s.area, s.label, s.state, s.reason, s.qa_work
FROM claims AS c
JOIN claim_state AS s ON s.claim_id = c.id
WHERE NOT EXISTS (SELECT 1 FROM latest_decisive_results AS l
                  JOIN results AS r ON r.id = l.result_id
                  JOIN environments AS e ON e.id = l.environment_id
                  WHERE l.claim_id = c.id
                    AND (NOT EXISTS (SELECT 1 FROM claim_subjects AS m WHERE m.claim_id = c.id)
                         OR EXISTS (SELECT 1 FROM claim_subjects AS m WHERE m.claim_id = c.id AND m.model = e.model))
                    AND (r.result = 'fail'
                         OR NOT EXISTS (SELECT 1 FROM claim_environment_gaps AS g
                                        WHERE g.claim_id = c.id AND g.environment_id = l.environment_id)))
  AND s.state IN ('untested', 'needs-device');

-- Labels the evidence does not support, one row per problem: measured without
-- a current pass (failing, stale, untested), sourced without a source,
-- failing whatever the label, unverified yet verified. The state is worked
-- out only for claims that can have a problem: measured ones, sourced ones
-- without a source, and those with a decisive fail or (unverified) a pass.
CREATE VIEW claim_mismatches AS
WITH s AS MATERIALIZED (
    SELECT st.claim_id, st.key, st.document, st.area, st.label, st.state, st.reason,
           EXISTS (SELECT 1 FROM claim_sources AS x WHERE x.claim_id = st.claim_id) AS has_source
    FROM claims AS c
    JOIN claim_state AS st ON st.claim_id = c.id
    WHERE c.label = 'measured'
       OR (c.label = 'sourced' AND NOT EXISTS (SELECT 1 FROM claim_sources AS x WHERE x.claim_id = c.id))
       OR EXISTS (SELECT 1 FROM latest_decisive_results AS l JOIN results AS r ON r.id = l.result_id
                  WHERE l.claim_id = c.id
                    AND (r.result = 'fail' OR (c.label = 'unverified' AND r.result = 'pass')))
),
problems (claim_id, kind) AS (
    SELECT claim_id, 'measured' FROM s
    WHERE label = 'measured' AND state NOT IN ('verified-on-device', 'verified-in-simulator')
    UNION ALL
    SELECT claim_id, 'sourced' FROM s WHERE label = 'sourced' AND NOT has_source
    UNION ALL
    SELECT claim_id, 'failing' FROM s WHERE state = 'failing'
    UNION ALL
    SELECT claim_id, 'unverified' FROM s
    WHERE label = 'unverified' AND state IN ('verified-on-device', 'verified-in-simulator')
)
SELECT s.claim_id, s.key, s.document, s.area, s.label, s.state,
       CASE p.kind
           WHEN 'measured' THEN 'labelled measured but has no current pass: ' || s.state || ': ' || s.reason
           WHEN 'sourced' THEN 'labelled sourced but cites no source'
           WHEN 'failing' THEN 'its latest decisive result failed: ' || s.reason
           ELSE 'labelled unverified but ' || s.state || ': ' || s.reason
       END AS problem
FROM problems AS p
JOIN s ON s.claim_id = p.claim_id;
