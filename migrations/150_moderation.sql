-- Reports and sanctions (internal/moderation).
--
-- A sanction is kept against its player's sign-in identities as well as
-- their account: keyed hashes (HMAC) of the account id, the e-mail address,
-- the Google subject and the Discord id, taken when it is given. Deleting
-- the account leaves
-- the sanction and its keys, so a new account on the same address, Google
-- or Discord identity meets the same ban; the keys reveal no address.
CREATE TABLE sanctions (
    id            bigserial PRIMARY KEY,
    user_id       bigint REFERENCES users(id) ON DELETE SET NULL,
    kind          text NOT NULL CHECK (kind IN ('mute', 'tournament_ban', 'site_ban')),
    -- A tournament ban's or a mute's tournament; NULL: every tournament
    -- (a site-wide mute, a ban from every season of the site).
    tournament_id bigint REFERENCES tournaments(id) ON DELETE CASCADE,
    reason        text NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    ends_at       timestamptz,                -- NULL: until lifted
    created_by    bigint REFERENCES users(id) ON DELETE SET NULL,
    lifted_at     timestamptz,
    lifted_by     bigint REFERENCES users(id) ON DELETE SET NULL,
    lift_reason   text NOT NULL DEFAULT '',
    CHECK (kind <> 'site_ban' OR tournament_id IS NULL),
    CHECK (ends_at IS NULL OR ends_at > created_at)
);
CREATE INDEX sanctions_by_user ON sanctions (user_id, id DESC) WHERE user_id IS NOT NULL;

CREATE TABLE sanction_identities (
    sanction_id bigint NOT NULL REFERENCES sanctions(id) ON DELETE CASCADE,
    key         bytea NOT NULL,
    PRIMARY KEY (key, sanction_id)
);

CREATE TABLE reports (
    id              bigserial PRIMARY KEY,
    reporter_id     bigint REFERENCES users(id) ON DELETE SET NULL,
    kind            text NOT NULL CHECK (kind IN ('message', 'profile', 'team')),
    subject_id      bigint NOT NULL,          -- the message's, player's or team's id
    subject_user_id bigint REFERENCES users(id) ON DELETE SET NULL,  -- whom it is about, when a player
    tournament_id   bigint REFERENCES tournaments(id) ON DELETE CASCADE,  -- whose staff see it; NULL: organisers only
    reason          text NOT NULL,
    context         jsonb NOT NULL,           -- what was reported, as it was then
    status          text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved', 'dismissed')),
    created_at      timestamptz NOT NULL DEFAULT now(),
    closed_at       timestamptz,
    closed_by       bigint REFERENCES users(id) ON DELETE SET NULL
);
-- One open report per reporter and thing.
CREATE UNIQUE INDEX reports_once ON reports (reporter_id, kind, subject_id) WHERE status = 'open';
CREATE INDEX reports_queue ON reports (tournament_id, id DESC);
