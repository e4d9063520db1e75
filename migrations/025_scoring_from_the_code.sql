-- A tournament's scoring is written by the code that makes the tournament
-- (bracket.DefaultScoring unless an organiser says otherwise): the table
-- keeps no default of its own to drift from it. Existing rows keep theirs.
ALTER TABLE tournaments ALTER COLUMN scoring DROP DEFAULT;
