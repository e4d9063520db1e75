-- A completed season's prizes, one row per winner's share (user_id NULL: a
-- prize nobody was placed for yet): owed, paid by the organiser (how, and
-- its reference), then confirmed received by the winner.
CREATE TABLE payouts (
    id            bigserial PRIMARY KEY,
    tournament_id bigint NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    label         text NOT NULL,
    place         int NOT NULL DEFAULT 0,
    team          text NOT NULL DEFAULT '',
    user_id       bigint REFERENCES users(id) ON DELETE SET NULL,
    amount        bigint NOT NULL CHECK (amount > 0),
    currency      char(3) NOT NULL,
    state         text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'paid', 'received')),
    method        text NOT NULL DEFAULT '',
    reference     text NOT NULL DEFAULT '',
    paid_at       timestamptz,
    received_at   timestamptz,
    created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX payouts_by_tournament ON payouts (tournament_id, id);
CREATE INDEX payouts_by_user ON payouts (user_id) WHERE user_id IS NOT NULL;
