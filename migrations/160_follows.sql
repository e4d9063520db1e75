-- Follows and blocks (internal/social). A follow is of one player (their
-- account), one team or one tournament; a follow both ways between two
-- players makes them friends. Every row goes with either account.
CREATE TABLE follows (
    id            bigserial PRIMARY KEY,
    follower_id   bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    player_id     bigint REFERENCES users(id) ON DELETE CASCADE,
    team_id       bigint REFERENCES teams(id) ON DELETE CASCADE,
    tournament_id bigint REFERENCES tournaments(id) ON DELETE CASCADE,
    created_at    timestamptz NOT NULL DEFAULT now(),
    CHECK (num_nonnulls(player_id, team_id, tournament_id) = 1),
    CHECK (player_id IS DISTINCT FROM follower_id)
);
CREATE UNIQUE INDEX follows_of_player ON follows (follower_id, player_id) WHERE player_id IS NOT NULL;
CREATE UNIQUE INDEX follows_of_team ON follows (follower_id, team_id) WHERE team_id IS NOT NULL;
CREATE UNIQUE INDEX follows_of_tournament ON follows (follower_id, tournament_id) WHERE tournament_id IS NOT NULL;
-- A player's followers, newest first, paged by id.
CREATE INDEX follows_followers ON follows (player_id, id DESC) WHERE player_id IS NOT NULL;

-- A block: the blocked account can no longer follow the blocker (its
-- follow goes) nor see the blocker's feed entries.
CREATE TABLE blocks (
    blocker_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    blocked_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (blocker_id, blocked_id),
    CHECK (blocker_id <> blocked_id)
);

-- Who may see whom a player follows and who follows them.
ALTER TABLE users ADD COLUMN follows_visible text NOT NULL DEFAULT 'everyone'
    CHECK (follows_visible IN ('everyone', 'friends', 'nobody'));
