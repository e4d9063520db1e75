-- A registration's entry fee: pending while its hold keeps the place
-- (hold_until), paid when Stripe's Checkout completed, refund_due then
-- refunded when the player withdrew (or paid after the hold had run out),
-- expired when the hold ran out unpaid. The amount is ours, written when the
-- payment was asked: a webhook never sets it.
CREATE TABLE registration_payments (
    id               bigserial PRIMARY KEY,
    tournament_id    bigint NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    user_id          bigint REFERENCES users(id) ON DELETE SET NULL,
    state            text NOT NULL CHECK (state IN ('pending', 'paid', 'refund_due', 'refunded', 'expired')),
    amount           bigint NOT NULL CHECK (amount > 0),
    currency         char(3) NOT NULL,
    hold_until       timestamptz NOT NULL,
    checkout_session text UNIQUE,
    checkout_url     text NOT NULL DEFAULT '',
    payment_intent   text,
    refund_id        text,
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now()
);
-- One live payment per registration.
CREATE UNIQUE INDEX registration_payments_live ON registration_payments (tournament_id, user_id)
    WHERE state IN ('pending', 'paid', 'refund_due');
CREATE INDEX registration_payments_holds ON registration_payments (hold_until) WHERE state = 'pending';
CREATE INDEX registration_payments_intent ON registration_payments (payment_intent) WHERE payment_intent IS NOT NULL;

-- Stripe's events handled, by id, written in the transaction of their
-- effect: a redelivered event finds its id and changes nothing.
CREATE TABLE stripe_events (
    id          text PRIMARY KEY,
    type        text NOT NULL,
    received_at timestamptz NOT NULL DEFAULT now()
);
