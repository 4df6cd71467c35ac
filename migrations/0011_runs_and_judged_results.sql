-- Runs, automated outcomes and expectations never make a claim read better.
--
-- * Within one run, a fail for a claim outweighs a pass at the same moment,
--   whichever was recorded last: two tests mapped to one claim, or a test
--   that failed and then passed on retry (each repetition is its own
--   result), never verify it in that run. decisive_result_order applies the
--   rule, and each claim's latest decisive result is worked out again.
-- * A result logged without a verdict is judged by the claim's expected
--   values (judged = 1), and judged again whenever they change; a tester's
--   verdict (judged = 0) stands.
--
-- Every row is kept.

ALTER TABLE results ADD COLUMN judged INTEGER NOT NULL DEFAULT 0 CHECK (judged = 0 OR judged = 1);

-- The results a claim's expected values judge, found without reading the others.
CREATE INDEX results_judged ON results (claim_id) WHERE judged = 1;

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
    -- The latest pass or fail: the last day; on it, the last result recorded
    -- with a date only, unless timed results were recorded after it, then the
    -- latest of those by the clock; with no date at all, the last recorded.
    SELECT d.claim_id, d.environment_id,
           coalesce(
               (SELECT r.id FROM results AS r INDEXED BY results_decisive
                 WHERE r.claim_id = d.claim_id AND r.environment_id = d.environment_id
                   AND r.result IN ('pass', 'fail') AND r.checked_at > d.day
                   AND (d.day_recorded_at IS NULL OR r.recorded_at > d.day_recorded_at
                        OR (r.recorded_at = d.day_recorded_at AND r.id > d.day_result_id))
                   AND NOT EXISTS (SELECT 1 FROM retractions AS x WHERE x.result_id = r.id OR x.run_id = r.run_id)
                 ORDER BY r.checked_at DESC, r.recorded_at DESC, r.id DESC LIMIT 1),
               (SELECT r.id FROM results AS r INDEXED BY results_decisive
                 WHERE r.claim_id = d.claim_id AND r.environment_id = d.environment_id
                   AND r.result IN ('pass', 'fail') AND r.checked_at = d.day
                   AND NOT EXISTS (SELECT 1 FROM retractions AS x WHERE x.result_id = r.id OR x.run_id = r.run_id)
                 ORDER BY r.recorded_at DESC, r.id DESC LIMIT 1),
               (SELECT r.id FROM results AS r INDEXED BY results_decisive
                 WHERE r.claim_id = d.claim_id AND r.environment_id = d.environment_id
                   AND r.result IN ('pass', 'fail') AND r.checked_at IS NULL
                   AND NOT EXISTS (SELECT 1 FROM retractions AS x WHERE x.result_id = r.id OR x.run_id = r.run_id)
                 ORDER BY r.recorded_at DESC, r.id DESC LIMIT 1)) AS result_id
    FROM (
        SELECT t.claim_id, t.environment_id, t.day, last_of_day.recorded_at AS day_recorded_at,
               last_of_day.id AS day_result_id
        FROM (
            SELECT p.claim_id, p.environment_id,
                   (SELECT substr(r.checked_at, 1, 10) FROM results AS r INDEXED BY results_decisive
                     WHERE r.claim_id = p.claim_id AND r.environment_id = p.environment_id
                       AND r.result IN ('pass', 'fail')
                       AND NOT EXISTS (SELECT 1 FROM retractions AS x WHERE x.result_id = r.id OR x.run_id = r.run_id)
                     ORDER BY r.checked_at DESC LIMIT 1) AS day
            FROM (SELECT DISTINCT r.claim_id, r.environment_id FROM results AS r INDEXED BY results_decisive
                  WHERE r.claim_id IS NOT NULL AND r.result IN ('pass', 'fail')) AS p
        ) AS t
        LEFT JOIN results AS last_of_day ON last_of_day.id = (
            SELECT r.id FROM results AS r INDEXED BY results_decisive
            WHERE r.claim_id = t.claim_id AND r.environment_id = t.environment_id
              AND r.result IN ('pass', 'fail') AND r.checked_at = t.day
              AND NOT EXISTS (SELECT 1 FROM retractions AS x WHERE x.result_id = r.id OR x.run_id = r.run_id)
            ORDER BY r.recorded_at DESC, r.id DESC LIMIT 1)
    ) AS d
) AS o
LEFT JOIN results AS w ON w.id = o.result_id;

-- Every claim's latest decisive result, worked out again by the rule.
DELETE FROM latest_decisive_results;
INSERT INTO latest_decisive_results (claim_id, environment_id, result_id)
SELECT claim_id, environment_id, result_id FROM decisive_result_order WHERE result_id IS NOT NULL;
