-- An undated result takes when it was recorded, across environments too.
--
-- DESIGN: "An undated result orders by when it was recorded." Within one
-- environment it did (counting_decisive_results); but when no current
-- environment had a decisive result, the newest one across environments was
-- chosen with an undated result's day taken as '' (older than any date), so
-- a pass imported without a date on the same builds as a device's fail of
-- October read "failing" where the rule says the newest, the pass recorded
-- in December, decides ("stale"). The model-based invariant test found it
-- once its sequences merged stores with ingested results. The view is
-- migration 18's with that one ordering changed.

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
