-- claim_state, rewritten so that its cost follows the claims asked about:
-- each claim's latest result and its best passing result are found by a few
-- index probes (newest first, stopping at the first match) instead of
-- correlated subqueries over every result, and the environments' facts are
-- computed once per query, not once per result. The states and their order
-- are those of version 1.

DROP VIEW claim_mismatches;
DROP VIEW untested_claims;
DROP VIEW claim_state;

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

-- claim_state is computed once here, not once per kind of problem.
CREATE VIEW claim_mismatches AS
WITH s AS MATERIALIZED (SELECT claim_id, key, document, area, label, state, reason FROM claim_state)
SELECT s.claim_id, s.key, s.document, s.area, s.label, s.state,
       'labelled measured but has no passing result' AS problem
FROM s
WHERE s.label = 'measured'
  AND NOT EXISTS (SELECT 1 FROM results AS r WHERE r.claim_id = s.claim_id AND r.result = 'pass')
UNION ALL
SELECT s.claim_id, s.key, s.document, s.area, s.label, s.state,
       'labelled sourced but cites no source'
FROM s
WHERE s.label = 'sourced'
  AND NOT EXISTS (SELECT 1 FROM claim_sources AS x WHERE x.claim_id = s.claim_id)
UNION ALL
SELECT s.claim_id, s.key, s.document, s.area, s.label, s.state,
       'latest result failed: ' || s.reason
FROM s
WHERE s.state = 'failing'
UNION ALL
SELECT s.claim_id, s.key, s.document, s.area, s.label, s.state,
       'labelled unverified but ' || s.state || ': ' || s.reason
FROM s
WHERE s.label = 'unverified' AND s.state IN ('verified-on-device', 'verified-in-simulator');
