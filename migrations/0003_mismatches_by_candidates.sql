-- claim_mismatches, rewritten so that claim_state is worked out only for the
-- claims that can have a problem: those labelled measured with no pass,
-- labelled sourced with no source, labelled unverified with a pass, or whose
-- latest result failed (which is what 'failing' means). The others, most
-- claims of a healthy store, cost a few index probes. The rows are those of
-- version 1.

DROP VIEW claim_mismatches;

CREATE VIEW claim_mismatches AS
WITH candidates AS MATERIALIZED (
    SELECT c.id FROM claims AS c
    WHERE (c.label = 'measured'
           AND NOT EXISTS (SELECT 1 FROM results AS r WHERE r.claim_id = c.id AND r.result = 'pass'))
       OR (c.label = 'sourced' AND NOT EXISTS (SELECT 1 FROM claim_sources AS x WHERE x.claim_id = c.id))
       OR (c.label = 'unverified'
           AND EXISTS (SELECT 1 FROM results AS r WHERE r.claim_id = c.id AND r.result = 'pass'))
       OR (SELECT r.result FROM results AS r WHERE r.claim_id = c.id
           ORDER BY r.checked_at DESC, r.id DESC LIMIT 1) = 'fail'
),
s AS MATERIALIZED (
    SELECT st.claim_id, st.key, st.document, st.area, st.label, st.state, st.reason
    FROM candidates AS k JOIN claim_state AS st ON st.claim_id = k.id
)
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
