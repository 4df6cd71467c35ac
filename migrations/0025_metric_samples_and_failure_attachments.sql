-- Measurements a test took many times, and attachments of a failure.
--
-- An XCTest metric (`measure {}`, an XCTMetric) is recorded as the mean of
-- its samples: `samples` says how many there were and `standard_deviation`
-- how far they spread (the sample standard deviation), both empty for a value
-- taken once. `with_failure` marks a file a test attached when it failed
-- (xcresulttool's isAssociatedWithFailure), which the reports say.

ALTER TABLE measurements ADD COLUMN samples INTEGER CHECK (samples IS NULL OR samples > 0);
ALTER TABLE measurements ADD COLUMN standard_deviation REAL
    CHECK (standard_deviation IS NULL OR standard_deviation >= 0);
ALTER TABLE attachments ADD COLUMN with_failure INTEGER NOT NULL DEFAULT 0 CHECK (with_failure IN (0, 1));
