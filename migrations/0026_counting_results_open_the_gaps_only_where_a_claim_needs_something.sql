-- Counting results without opening the gaps for claims that need nothing.
--
-- counting_decisive_results asks, for each environment of a claim, whether the
-- environment lacks a capability the claim needs (claim_environment_gaps).
-- SQLite opens every table of that question each time it is asked, even for a
-- claim that needs no capability, and the report asks it for every
-- environment of every claim, several times: on a store of 10,000 claims and
-- 1,000,000 results, opening those tables was a third of the claims' state.
-- The same view, asking first whether the claim needs any capability at all.
-- Every row stays as it was.

DROP VIEW counting_decisive_results;
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
