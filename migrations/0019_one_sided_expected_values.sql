-- One-sided expected values.
--
-- A metric has a polarity: a launch time is good when it is at most 0.4 s,
-- a frame rate when it is at least 60 fps. An expected value was always
-- "VALUE ±TOLERANCE"; `bound` says which side a measurement may fall:
-- 'within' (the tolerance either side, as before), 'at-most' or 'at-least'
-- (the value itself the limit; such a value has no tolerance).

ALTER TABLE claim_expectations ADD COLUMN bound TEXT NOT NULL DEFAULT 'within'
    CHECK (bound = 'within' OR (bound IN ('at-most', 'at-least') AND tolerance = 0));
