-- The transactional outbox: a live event is written in the transaction of
-- the change it tells of, and published after the commit by the relay.

-- A topic's last seq. Emitting an event raises it, which locks the row until
-- the transaction ends: a topic's events commit one at a time, so seq order
-- is commit order and a rolled-back event leaves no gap.
CREATE TABLE event_topics (
    topic      text PRIMARY KEY,
    seq        bigint NOT NULL DEFAULT 0,
    updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE outbox (
    id           bigserial PRIMARY KEY,
    topic        text NOT NULL,
    seq          bigint NOT NULL,
    event        text NOT NULL,
    data         jsonb NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    published_at timestamptz,
    UNIQUE (topic, seq)
);
-- What the relay reads: the unpublished events, oldest first.
CREATE INDEX outbox_unpublished ON outbox (id) WHERE published_at IS NULL;
CREATE INDEX outbox_published ON outbox (published_at) WHERE published_at IS NOT NULL;
