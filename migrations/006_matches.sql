-- The league's second half: fixtures and their results, the Points Table's
-- scoring, champions and seasons.

ALTER TABLE tournaments
    ADD COLUMN season integer,
    ADD COLUMN format text,
    ADD COLUMN scoring jsonb NOT NULL DEFAULT '{"win": 3, "loss": 0, "kills_per_point": 50}',
    ADD COLUMN champion_team_id bigint REFERENCES teams(id) ON DELETE SET NULL,
    ADD COLUMN completed_at timestamptz;
-- PPL7 is season 7.
UPDATE tournaments SET season = nullif(regexp_replace(name, '\D', '', 'g'), '')::integer
 WHERE season IS NULL AND length(regexp_replace(name, '\D', '', 'g')) BETWEEN 1 AND 6;

CREATE TABLE matches (
    id             bigserial PRIMARY KEY,
    tournament_id  bigint NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    stage          text NOT NULL,
    round_number   integer NOT NULL,
    slot           integer NOT NULL,
    team1_id       bigint REFERENCES teams(id) ON DELETE SET NULL,  -- the home side
    team2_id       bigint REFERENCES teams(id) ON DELETE SET NULL,
    winner_id      bigint REFERENCES teams(id) ON DELETE SET NULL,
    status         text NOT NULL DEFAULT 'scheduled'
                   CHECK (status IN ('scheduled', 'live', 'reported', 'completed', 'disputed', 'cancelled')),
    scheduled_at   timestamptz,
    room           text NOT NULL DEFAULT '',
    next_match_id  bigint REFERENCES matches(id) ON DELETE SET NULL,
    next_side      smallint CHECK (next_side IN (1, 2)),
    reported_by    bigint REFERENCES teams(id) ON DELETE SET NULL,
    reported_at    timestamptz,
    report         jsonb,  -- {"winner": "A", "players": [{"user_id", "team", "kills", "deaths", "placement"}]}
    proof_image_id text REFERENCES images(id),
    dispute_reason text NOT NULL DEFAULT '',
    confirm_by     timestamptz,
    forfeit        boolean NOT NULL DEFAULT false,
    updated_at     timestamptz NOT NULL DEFAULT now(),
    UNIQUE (tournament_id, stage, round_number, slot)
);
CREATE INDEX matches_by_tournament ON matches (tournament_id, round_number, slot);

-- Who plays: up to four karts a side.
CREATE TABLE match_lineups (
    match_id bigint NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    team_id  bigint NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
    user_id  bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    PRIMARY KEY (match_id, user_id)
);

-- A completed match's players, as the Points Table and the Red Cap count them.
CREATE TABLE match_lines (
    match_id  bigint NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    team_id   bigint NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
    user_id   bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    kills     integer NOT NULL CHECK (kills >= 0),
    deaths    integer NOT NULL CHECK (deaths >= 0),
    placement integer NOT NULL CHECK (placement BETWEEN 0 AND 8),
    PRIMARY KEY (match_id, user_id)
);
