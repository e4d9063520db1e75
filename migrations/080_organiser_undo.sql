-- Organisers without dead ends: fixtures reset and archived, teams
-- withdrawn mid-season.
--
-- A reset deletes a season's fixtures and keeps them here first, with
-- every result and player line they had, under the reset's id: nothing an
-- organiser resets is lost, and organisers can read it back.
CREATE TABLE fixture_resets (
    id            bigserial PRIMARY KEY,
    tournament_id bigint NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    format        text NOT NULL DEFAULT '',
    options       jsonb NOT NULL DEFAULT '{}',
    matches       integer NOT NULL,
    results       integer NOT NULL,  -- matches that had a result (reported, disputed, completed)
    forced        boolean NOT NULL DEFAULT false,
    reset_by      bigint REFERENCES users(id) ON DELETE SET NULL,
    reset_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX fixture_resets_by_tournament ON fixture_resets (tournament_id, id DESC);

-- One reset fixture as it stood: its sides and winner by letter (the teams
-- stay, the match rows go), its report and proof, its players' lines and its Discord
-- thread (the bot archives the threads of the matches a reset took away).
CREATE TABLE fixture_reset_matches (
    reset_id     bigint NOT NULL REFERENCES fixture_resets(id) ON DELETE CASCADE,
    match_id     bigint NOT NULL,
    stage        text NOT NULL,
    round_number integer NOT NULL,
    slot         integer NOT NULL,
    team1        text,
    team2        text,
    winner       text,
    status       text NOT NULL,
    forfeit      boolean NOT NULL DEFAULT false,
    scheduled_at timestamptz,
    report       jsonb,
    proof        text REFERENCES images(id) ON DELETE SET NULL,  -- the end-of-match screenshot its result cited
    lines        jsonb NOT NULL DEFAULT '[]',  -- [{"user_id","team","kills","deaths","placement"}]
    thread_id    text NOT NULL DEFAULT '',
    PRIMARY KEY (reset_id, match_id)
);

-- A team withdrawn from its season: it plays no more (its matches go to
-- its opponents by forfeit), stays in the tables marked withdrawn, and is
-- never champion. withdrawn_rounds is how many Swiss rounds were paired
-- when it withdrew: the byes it had until then stand, it has none after.
ALTER TABLE teams
    ADD COLUMN withdrawn_at     timestamptz,
    ADD COLUMN withdrawn_reason text NOT NULL DEFAULT '',
    ADD COLUMN withdrawn_rounds integer NOT NULL DEFAULT 0;
