-- League III's formats. A double elimination's winners-bracket match sends
-- its loser on to a losers-bracket match (the loser's side of it), as every
-- knockout match sends its winner on. A season keeps its format's options
-- (a Swiss stage's rounds and top cut, the grand final's reset). A team
-- keeps its seed once one is set: by an organiser before the fixtures, or
-- from its strength when the fixtures are made, so every later Swiss round
-- and play-off ranks by the seeds the first round had.
ALTER TABLE matches
    ADD COLUMN loser_match_id bigint REFERENCES matches(id) ON DELETE SET NULL,
    ADD COLUMN loser_side     smallint CHECK (loser_side IN (1, 2));

ALTER TABLE tournaments
    ADD COLUMN format_options jsonb NOT NULL DEFAULT '{}',
    ADD COLUMN seeds_by_hand  boolean NOT NULL DEFAULT false;

ALTER TABLE teams
    ADD COLUMN seed integer CHECK (seed > 0),
    ADD CONSTRAINT teams_seed_once UNIQUE (tournament_id, seed) DEFERRABLE;
