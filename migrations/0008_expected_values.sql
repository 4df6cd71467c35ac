-- Expected values: what a claim's measurement must be, within a tolerance
-- (`evidence claim expect KEY 'status-bar clock y=171pt ±2pt'`). A result
-- logged without --result is judged against them; the report shows them
-- beside what was measured. One expectation per claim and measurement name.
CREATE TABLE claim_expectations (
    id        INTEGER PRIMARY KEY,
    claim_id  INTEGER NOT NULL REFERENCES claims (id) ON DELETE CASCADE,
    name      TEXT NOT NULL CHECK (length(trim(name)) > 0),
    value     REAL NOT NULL,
    unit      TEXT NOT NULL
              CHECK (unit = 'pt' OR unit = 'px' OR unit = 'mm' OR unit = 'ms' OR unit = 's' OR unit = '%'
                     OR unit = 'count' OR unit = 'fps' OR unit = 'B' OR unit = 'KB' OR unit = 'MB'),
    tolerance REAL NOT NULL CHECK (tolerance >= 0),
    UNIQUE (claim_id, name)
) STRICT;

-- Flaky results: a claim's last decisive results on each environment are read
-- from the end of this index. It now also holds each result and its run, so
-- that reading them (and whether the run was retracted) needs no row of
-- results; the views and triggers that used it read the same prefix.
DROP INDEX results_decisive;
CREATE INDEX results_decisive ON results (claim_id, environment_id, checked_at, recorded_at, id, result, run_id)
    WHERE claim_id IS NOT NULL AND result IN ('pass', 'fail');

-- decisive_result_order, which the triggers run at every decisive result,
-- names the index it reads, so that the wider index never sends the planner
-- to another one. Otherwise it is the view of migration 5.
DROP VIEW decisive_result_order;
CREATE VIEW decisive_result_order AS
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
) AS d;
