-- The last day of each claim and environment worked out once.
--
-- decisive_result_order works out, for each claim and environment, the last
-- day of its decisive results, then the result of that day that decides.
-- SQLite flattened the query of the last day into the queries that use it, so
-- the day was worked out again for every result compared with it: on a store
-- of 10,000 claims and 100,000 results, working out every claim's latest
-- decisive result (as an import into an empty store does) took 0.41 s, a third
-- of it spent on days already known. A query with DISTINCT is not flattened,
-- and SQLite still pushes a claim and environment asked for down into it, so
-- the triggers that ask for one pair read only its results. The rule is the
-- same and every row stays as it was.

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
