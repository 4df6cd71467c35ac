-- The state worked out once per claim, and mismatches in columns.
--
-- claim_state joined each claim's deciding and last results by ids that were
-- then used again in every branch of the state and its reason; SQLite works
-- out a flattened view's expression at each use, so the probes behind them
-- ran several times a claim. The ids now come from the joined rows (the same
-- results: ids come from the results table), about half the time on a large
-- store, and a query about one claim still reads that claim's results only.
-- Two columns are added: reason_names_run (1 when the reason names the run
-- and environment of the result it rests on) and known_issues (the links in
-- the reason after "known: "), so nothing reads them back out of the text.
--
-- A claim's mismatches are worked out with its state: claim_state gives
-- label_problem (a label its evidence does not support) and evidence_problem
-- (a failure), so a report that reads the states has them too.
-- claim_mismatches reads them and gives the problem's kind, the problem and
-- the claim's state's reason as separate columns: problem no longer ends
-- with the reason.
--
-- The views built on claim_state are dropped first and made again.

DROP VIEW claim_known_issues;
DROP VIEW claim_mismatches;
DROP VIEW untested_claims;
DROP VIEW claim_state;

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
    SELECT d.*,
           -- The ids as joined, not d.decisive_id and d.last_id: each use of
           -- those would work them out again.
           decisive.id AS decisive_result_id, last.id AS last_result_id,
           decisive.result AS decisive_outcome, decisive.checked_at AS decisive_checked_at,
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
           END AS known_issues
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


CREATE VIEW claim_mismatches AS
-- The claims that can have a problem, found cheaply first, so the state is
-- worked out for those only; their problems are claim_state's.
WITH s AS MATERIALIZED (
    SELECT st.claim_id, st.key, st.document, st.area, st.label, st.state, st.reason, st.label_problem,
           st.evidence_problem
    FROM claims AS c
    JOIN claim_state AS st ON st.claim_id = c.id
    WHERE c.label = 'measured'
       OR (c.label = 'sourced' AND NOT EXISTS (SELECT 1 FROM claim_sources AS x WHERE x.claim_id = c.id))
       OR EXISTS (SELECT 1 FROM latest_decisive_results AS l JOIN results AS r ON r.id = l.result_id
                  WHERE l.claim_id = c.id
                    AND (r.result = 'fail' OR (c.label = 'unverified' AND r.result = 'pass')))
)
SELECT claim_id, key, document, area, label, state, label AS kind, label_problem AS problem, reason
FROM s WHERE label_problem IS NOT NULL
UNION ALL
SELECT claim_id, key, document, area, label, state, 'failing', evidence_problem, reason
FROM s WHERE evidence_problem IS NOT NULL;

-- Failing claims with the issues that track them: "failing, known: URL".
CREATE VIEW claim_known_issues AS
SELECT s.key AS claim, s.document, c.owner, f.url, f.linked_at, f.failures
FROM claim_state AS s
JOIN claims AS c ON c.id = s.claim_id
JOIN failure_links AS f ON f.claim_id = s.claim_id
WHERE s.state = 'failing';
