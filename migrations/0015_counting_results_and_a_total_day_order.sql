-- A result that never counts neither decides nor hides; a total order within a day.
--
-- A pass where the environment lacks a capability the claim needs never
-- counts. It was still the latest decisive result of its environment, so it
-- hid the fail before it: a device pass, a simulator fail, then a simulator
-- pass where the simulator lacks StandBy read verified-on-device.
-- counting_decisive_results gives each claim's environments the result that
-- counts there: the latest decisive result, or, where the environment lacks
-- a needed capability, the latest fail (a pass there counts for nothing).
-- claim_state, untested_claims and claim_mismatches read it.
--
-- decisive_result_order compared results of one day at the coarser
-- precision pair by pair, which can run in a circle (a fail at 10:00, a pass
-- at 09:00 recorded later, a fail with a date only recorded between them),
-- and the circle settled on the pass. Now, per environment: the last day,
-- where an undated result's day and time are when it was recorded (never
-- before results recorded earlier). Within the day, by time where every
-- decisive result of the day has one, then by recording order; when one has
-- only the date, the day's results cannot be ordered: they are tied, and a
-- fail among them decides. Within one run, a fail outweighs a pass at the
-- same moment, as before. Every claim's latest decisive result is worked
-- out again by the rule.

DROP VIEW claim_known_issues;
DROP VIEW claim_mismatches;
DROP VIEW untested_claims;
DROP VIEW claim_state;
DROP VIEW decisive_result_order;

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
            SELECT p.claim_id, p.environment_id,
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

-- Each claim's environments with the result that counts there: the latest
-- decisive result, except where the environment lacks a capability the
-- claim needs: a pass there never counts, so it neither decides nor hides the
-- fail before it, and the latest fail there decides, if there is one.
CREATE VIEW counting_decisive_results AS
SELECT l.claim_id, l.environment_id, l.result_id
FROM latest_decisive_results AS l
WHERE NOT EXISTS (SELECT 1 FROM claim_environment_gaps AS g
                  WHERE g.claim_id = l.claim_id AND g.environment_id = l.environment_id)
UNION ALL
SELECT l.claim_id, l.environment_id,
       (SELECT r.id FROM results AS r INDEXED BY results_decisive
        WHERE r.claim_id = l.claim_id AND r.environment_id = l.environment_id
          AND r.result IN ('pass', 'fail') AND r.result = 'fail'
          AND NOT EXISTS (SELECT 1 FROM retractions AS x WHERE x.result_id = r.id OR x.run_id = r.run_id)
        ORDER BY coalesce(r.checked_at, r.recorded_at) DESC, r.recorded_at DESC, r.id DESC LIMIT 1) AS result_id
FROM latest_decisive_results AS l
WHERE EXISTS (SELECT 1 FROM claim_environment_gaps AS g
              WHERE g.claim_id = l.claim_id AND g.environment_id = l.environment_id)
  AND EXISTS (SELECT 1 FROM results AS r INDEXED BY results_decisive
              WHERE r.claim_id = l.claim_id AND r.environment_id = l.environment_id
                AND r.result IN ('pass', 'fail') AND r.result = 'fail'
                AND NOT EXISTS (SELECT 1 FROM retractions AS x WHERE x.result_id = r.id OR x.run_id = r.run_id));

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
WHERE NOT EXISTS (SELECT 1 FROM counting_decisive_results AS l
                  JOIN environments AS e ON e.id = l.environment_id
                  WHERE l.claim_id = c.id
                    AND (NOT EXISTS (SELECT 1 FROM claim_subjects AS m WHERE m.claim_id = c.id)
                         OR EXISTS (SELECT 1 FROM claim_subjects AS m WHERE m.claim_id = c.id AND m.model = e.model)))
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
       OR EXISTS (SELECT 1 FROM counting_decisive_results AS l JOIN results AS r ON r.id = l.result_id
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

-- Every claim's latest decisive result, worked out again by the rule.
DELETE FROM latest_decisive_results;
INSERT INTO latest_decisive_results (claim_id, environment_id, result_id)
SELECT claim_id, environment_id, result_id FROM decisive_result_order WHERE result_id IS NOT NULL;
