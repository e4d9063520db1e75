-- League III: check-in, the waitlist and substitutes.
--
-- A season may cap its registrations: a player who registers once it is
-- full waits on its waitlist, in order, and moves up when a place frees.
-- Before the auction an organiser opens a check-in window with a deadline;
-- at the deadline the players who did not check in drop to the waitlist
-- (a river job written with the window), and organisers promote from it.
ALTER TABLE tournaments
    ADD COLUMN registration_cap  integer CHECK (registration_cap > 0),
    ADD COLUMN checkin_opened_at timestamptz,
    ADD COLUMN checkin_deadline  timestamptz,
    ADD COLUMN checkin_closed_at timestamptz;

-- A registration is confirmed (it counts against the cap, the auction may
-- put it up) or waitlisted; the waitlist's order is when a player joined
-- it, then when they registered.
ALTER TABLE registrations
    ADD COLUMN status        text NOT NULL DEFAULT 'confirmed' CHECK (status IN ('confirmed', 'waitlisted')),
    ADD COLUMN checked_in_at timestamptz,
    ADD COLUMN waitlisted_at timestamptz,
    ADD CONSTRAINT registrations_waitlist_order CHECK ((status = 'waitlisted') = (waitlisted_at IS NOT NULL));
CREATE INDEX registrations_waitlist ON registrations (tournament_id, waitlisted_at, created_at, user_id)
    WHERE status = 'waitlisted';

-- A team's substitutes sit beside its five players: signed after the
-- auction from the players it left, at their tier's base price.
ALTER TABLE team_players ADD COLUMN substitute boolean NOT NULL DEFAULT false;

-- A captain asks to sign a substitute; an organiser approves or refuses.
CREATE TABLE substitute_requests (
    id            bigserial PRIMARY KEY,
    tournament_id bigint NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    team_id       bigint NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
    user_id       bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    price         integer NOT NULL CHECK (price BETWEEN 1100 AND 2200),
    status        text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'refused')),
    asked_by      bigint REFERENCES users(id) ON DELETE SET NULL,
    asked_at      timestamptz NOT NULL DEFAULT now(),
    decided_by    bigint REFERENCES users(id) ON DELETE SET NULL,
    decided_at    timestamptz,
    reason        text NOT NULL DEFAULT ''
);
-- A team asks for a player once at a time.
CREATE UNIQUE INDEX substitute_requests_one_pending ON substitute_requests (team_id, user_id) WHERE status = 'pending';
CREATE INDEX substitute_requests_by_tournament ON substitute_requests (tournament_id, id DESC);

-- Each side's captain checks in for a match in the hour before its time;
-- a new time clears the check-ins of the old one.
CREATE TABLE match_checkins (
    match_id bigint NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    team_id  bigint NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
    user_id  bigint REFERENCES users(id) ON DELETE SET NULL,
    at       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (match_id, team_id)
);
