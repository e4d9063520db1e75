-- A league's memory: what each saving of a player's stats read (the
-- profile's chart over time), a player's choice to hide the profile from
-- the public, and trigram indexes for finding players and teams by any
-- part of their name.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE stats_history (
    id           bigserial PRIMARY KEY,
    user_id      bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    taken_at     timestamptz NOT NULL DEFAULT now(),
    level        integer NOT NULL,
    kills        integer NOT NULL,
    deaths       integer NOT NULL,
    games_played integer NOT NULL,
    kd           numeric(10, 2) NOT NULL,
    verified     boolean NOT NULL
);
CREATE INDEX stats_history_by_user ON stats_history (user_id, id);

-- Today's stats are the first point of every player's history.
INSERT INTO stats_history (user_id, taken_at, level, kills, deaths, games_played, kd, verified)
SELECT user_id, updated_at, level, kills, deaths, games_played, kd, verified FROM stats;

ALTER TABLE users ADD COLUMN profile_hidden boolean NOT NULL DEFAULT false;

-- fastupdate off: a new name goes into the index at once, not into a pending
-- list that every search would read through until the next vacuum.
CREATE INDEX users_name_trgm ON users USING gin (lower(name) gin_trgm_ops) WITH (fastupdate = off);
CREATE INDEX users_discord_trgm ON users USING gin (lower(discord_username) gin_trgm_ops) WITH (fastupdate = off);
CREATE INDEX stats_player_name_trgm ON stats USING gin (lower(player_name) gin_trgm_ops) WITH (fastupdate = off);
CREATE INDEX teams_name_trgm ON teams USING gin (lower(name) gin_trgm_ops) WITH (fastupdate = off);

-- A player's lines and lineups, for the profile and the leaderboards.
CREATE INDEX match_lines_by_user ON match_lines (user_id);
CREATE INDEX team_players_by_user ON team_players (user_id);
