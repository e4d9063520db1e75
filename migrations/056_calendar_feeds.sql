-- Calendar feeds: each player's and each team's matches at a secret
-- address, an HMAC of the feed and its generation. A reset moves the feed
-- to the next generation, which turns the old address off; a feed with no
-- row is at generation 1.
CREATE TABLE calendar_feeds (
    user_id    bigint REFERENCES users(id) ON DELETE CASCADE,
    team_id    bigint REFERENCES teams(id) ON DELETE CASCADE,
    generation integer NOT NULL DEFAULT 1 CHECK (generation > 0),
    reset_at   timestamptz NOT NULL DEFAULT now(),
    CHECK ((user_id IS NULL) <> (team_id IS NULL))
);
CREATE UNIQUE INDEX calendar_feeds_user ON calendar_feeds (user_id) WHERE user_id IS NOT NULL;
CREATE UNIQUE INDEX calendar_feeds_team ON calendar_feeds (team_id) WHERE team_id IS NOT NULL;
