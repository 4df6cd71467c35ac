-- The coverage matrix of the HTML report marks where a claim has only
-- skipped, blocked or inconclusive results. They are few beside passes and
-- failures, so this index of them is small, and finding them reads it alone
-- instead of every result.
CREATE INDEX results_not_decisive ON results (claim_id, environment_id, run_id)
    WHERE claim_id IS NOT NULL AND result NOT IN ('pass', 'fail');
