-- The league's first half: every tournament has its eight teams, a captain
-- captains one team per tournament, players carry a tier an organiser may
-- adjust, and captains buy players in a live credits auction.

-- Eight teams, A to H, for every tournament (new ones get theirs from the
-- store when they are created).
INSERT INTO teams (tournament_id, letter, name)
SELECT t.id, l.letter, 'Team ' || l.letter
  FROM tournaments t CROSS JOIN (VALUES ('A'), ('B'), ('C'), ('D'), ('E'), ('F'), ('G'), ('H')) AS l(letter)
ON CONFLICT (tournament_id, letter) DO NOTHING;

CREATE UNIQUE INDEX teams_one_team_per_captain ON teams (tournament_id, captain_user_id)
    WHERE captain_user_id IS NOT NULL;

-- An organiser's tier for a player in one tournament, over the one computed
-- from their stats.
ALTER TABLE registrations ADD COLUMN tier integer CHECK (tier BETWEEN 1 AND 4);

CREATE TABLE auction_lots (
    id            bigserial PRIMARY KEY,
    tournament_id bigint NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    user_id       bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    base_price    integer NOT NULL CHECK (base_price BETWEEN 1100 AND 2200),
    increment     integer NOT NULL CHECK (increment > 0),
    status        text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'sold', 'unsold', 'voided')),
    high_team_id  bigint REFERENCES teams(id) ON DELETE SET NULL,
    high_amount   integer,
    ends_at       timestamptz NOT NULL,
    opened_at     timestamptz NOT NULL DEFAULT now(),
    closed_at     timestamptz
);
-- One lot under the hammer per tournament.
CREATE UNIQUE INDEX auction_lots_one_open ON auction_lots (tournament_id) WHERE status = 'open';
CREATE INDEX auction_lots_by_tournament ON auction_lots (tournament_id, id DESC);

CREATE TABLE auction_bids (
    id      bigserial PRIMARY KEY,
    lot_id  bigint NOT NULL REFERENCES auction_lots(id) ON DELETE CASCADE,
    team_id bigint NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
    user_id bigint REFERENCES users(id) ON DELETE SET NULL,
    amount  integer NOT NULL CHECK (amount BETWEEN 1100 AND 2200),
    at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX auction_bids_by_lot ON auction_bids (lot_id, id);

-- A sale is a roster slot bought in a lot.
ALTER TABLE team_players ADD COLUMN lot_id bigint REFERENCES auction_lots(id) ON DELETE SET NULL,
                         ADD COLUMN bought_at timestamptz NOT NULL DEFAULT now();

-- The captains room.
CREATE TABLE captain_messages (
    id            bigserial PRIMARY KEY,
    tournament_id bigint NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    user_id       bigint REFERENCES users(id) ON DELETE SET NULL,
    author        text NOT NULL,
    role          text NOT NULL,
    team          text NOT NULL DEFAULT '',
    text          text NOT NULL CHECK (char_length(text) BETWEEN 1 AND 500),
    at            timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX captain_messages_by_tournament ON captain_messages (tournament_id, id DESC);
