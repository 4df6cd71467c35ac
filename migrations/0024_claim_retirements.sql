-- A claim retired, and brought back.
--
-- A document drops a claim; its history stays. `claim retire KEY` takes the
-- claim out of every list, report, checklist and count; `claim restore KEY`
-- brings it back. Each is a row here, only ever added, and travels in
-- retirements.jsonl: the claim is retired when its latest row (by time, then
-- UUID) says so. Its results, label history and words stay where they are.

CREATE TABLE claim_retirements (
    id         INTEGER PRIMARY KEY,
    uuid       TEXT NOT NULL UNIQUE CHECK (length(uuid) = 36 AND uuid NOT GLOB '*[^0-9a-f-]*'),
    claim_id   INTEGER NOT NULL REFERENCES claims (id) ON DELETE CASCADE,
    -- 'retire' takes the claim out; 'restore' brings it back.
    action     TEXT NOT NULL CHECK (action IN ('retire', 'restore')),
    changed_by TEXT NOT NULL CHECK (length(trim(changed_by)) > 0),
    changed_at TEXT NOT NULL
               CHECK (changed_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z'
                      AND strftime('%Y-%m-%dT%H:%M:%SZ', julianday(changed_at)) = changed_at),
    reason     TEXT NOT NULL DEFAULT ''
) STRICT;

CREATE INDEX claim_retirements_by_claim ON claim_retirements (claim_id, changed_at, uuid);

CREATE TRIGGER claim_retirements_no_update BEFORE UPDATE ON claim_retirements
BEGIN
    SELECT RAISE(ABORT, 'a retirement is never changed');
END;

CREATE TRIGGER claim_retirements_no_delete BEFORE DELETE ON claim_retirements
BEGIN
    SELECT RAISE(ABORT, 'a retirement is never deleted');
END;

-- The claims retired now: their latest row retires them.
CREATE VIEW retired_claims AS
SELECT x.claim_id, c.key, c.document, x.changed_by AS retired_by, x.changed_at AS retired_at, x.reason, x.uuid
FROM claim_retirements AS x
JOIN claims AS c ON c.id = x.claim_id
WHERE x.action = 'retire'
  AND NOT EXISTS (SELECT 1 FROM claim_retirements AS y
                  WHERE y.claim_id = x.claim_id AND (y.changed_at, y.uuid) > (x.changed_at, x.uuid));

-- The claims in use: every claim but the retired ones. Lists, reports,
-- checklists and counts read these. (The retired ones are worked out once
-- per query, not once per claim.)
CREATE VIEW live_claims AS
SELECT c.*
FROM claims AS c
WHERE c.id NOT IN (SELECT claim_id FROM retired_claims);

DROP VIEW untested_claims;
CREATE VIEW untested_claims AS
SELECT s.claim_id, s.key, s.document, s.area, s.label, s.state, s.reason, s.qa_work
FROM live_claims AS c
JOIN claim_state AS s ON s.claim_id = c.id
WHERE NOT EXISTS (SELECT 1 FROM counting_decisive_results AS l
                  JOIN environments AS e ON e.id = l.environment_id
                  WHERE l.claim_id = c.id
                    AND (NOT EXISTS (SELECT 1 FROM claim_subjects AS m WHERE m.claim_id = c.id)
                         OR EXISTS (SELECT 1 FROM claim_subjects AS m WHERE m.claim_id = c.id AND m.model = e.model)))
  AND s.state IN ('untested', 'needs-device');

DROP VIEW claim_known_issues;
CREATE VIEW claim_known_issues AS
SELECT s.key AS claim, s.document, c.owner, f.url, f.linked_at, f.failures
FROM claim_state AS s
JOIN live_claims AS c ON c.id = s.claim_id
JOIN failure_links AS f ON f.claim_id = s.claim_id
WHERE s.state = 'failing';

DROP VIEW claim_mismatches;
CREATE VIEW claim_mismatches AS
-- The claims that can have a problem, found cheaply first, so the state is
-- worked out for those only; their problems are claim_state's.
WITH s AS MATERIALIZED (
    SELECT st.claim_id, st.key, st.document, st.area, st.label, st.state, st.reason, st.label_problem,
           st.evidence_problem
    FROM live_claims AS c
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
