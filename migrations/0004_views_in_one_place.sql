-- Every view of the store in one place. Versions 1 to 3 defined them across
-- three files (claim_state in 0002, claim_mismatches in 0003, the rest in
-- 0001); this one drops them all and defines each once, with the rows they
-- had. claim_mismatches names each kind of problem once: the cheap facts of
-- every claim first, then claim_state only for the claims with a problem.
-- docs/schema.sql shows the whole current schema.

DROP VIEW claim_mismatches;
DROP VIEW untested_claims;
DROP VIEW claim_state;
DROP VIEW latest_results;
DROP VIEW claim_environment_gaps;
DROP VIEW claim_device_needs;
DROP VIEW measurement_deltas;
DROP VIEW environment_status;

-- Each environment, how people name it, and whether it is current: no other
-- environment of the same kind and model has a newer OS build or tool build.
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

-- For each claim and environment: a capability the claim needs that the
-- environment lacks, with the lack that says so.
CREATE VIEW claim_environment_gaps AS
SELECT cc.claim_id, e.id AS environment_id, cc.capability_id, l.id AS environment_lack_id
FROM claim_capabilities AS cc
JOIN environment_lacks AS l ON l.capability_id = cc.capability_id
JOIN environments AS e
  ON e.kind = l.kind AND e.model = l.model AND (l.tool_build = '' OR l.tool_build = e.tool_build);

-- The latest result (by checked_at, then insertion) of each claim in each environment.
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

-- Each claim's verification state, derived from its results and nothing else,
-- in this order:
--   failing                latest result is a fail
--   verified-on-device     passed on a current device that has every capability it needs
--   verified-in-simulator  passed on a current simulator that has every capability it needs
--   stale                  passed only on OS or tool builds older than the newest recorded
--   needs-device           needs a capability a simulator lacks, with no pass where it is present
--   untested               no result, or no pass and no fail
-- Each claim's latest result and its best passing result are found by a few
-- index probes (newest first, stopping at the first match), and the
-- environments' facts are computed once per query.
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

-- A claim with a pass where every capability it needs is present is verified,
-- stale or failing, never untested: that test, two index probes for most
-- claims, runs before the state is worked out.
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

-- For claims that need a capability a simulator lacks: which, and who says so.
CREATE VIEW claim_device_needs AS
SELECT
    cc.claim_id, c.key AS claim_key, k.name AS capability, l.kind, l.model, l.tool_build,
    s.url AS source_url, s.title AS source_title, l.reported_in, l.note
FROM claim_capabilities AS cc
JOIN claims AS c ON c.id = cc.claim_id
JOIN capabilities AS k ON k.id = cc.capability_id
JOIN environment_lacks AS l ON l.capability_id = cc.capability_id AND l.kind = 'simulator'
LEFT JOIN sources AS s ON s.id = l.source_id;

-- Labels the evidence does not support, one row per problem.
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

-- Every measurement with its claim, run and environment, and the change from its baseline.
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
