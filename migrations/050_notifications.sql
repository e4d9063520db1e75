-- Notifications a player chooses: per kind and channel, the browsers
-- (Web Push subscriptions) they get them on, and each message sent once.

-- A player's choice of one kind on one channel; no row is "off".
CREATE TABLE notification_choices (
    user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    kind    text NOT NULL,
    channel text NOT NULL CHECK (channel IN ('push', 'discord')),
    PRIMARY KEY (user_id, kind, channel)
);

-- One browser's push subscription (RFC 8030): the push service's endpoint
-- and the keys the message is encrypted to (RFC 8291).
CREATE TABLE push_devices (
    id         bigserial PRIMARY KEY,
    user_id    bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    endpoint   text NOT NULL UNIQUE,
    p256dh     text NOT NULL,
    auth       text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX push_devices_by_user ON push_devices (user_id);

-- A message to one player on one channel (and device): the key names what
-- it tells of (a report of match 12 at a moment), so however often an
-- event is read, a player hears of it once per channel and device.
CREATE TABLE notification_deliveries (
    id         bigserial PRIMARY KEY,
    key        text NOT NULL,
    user_id    bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    channel    text NOT NULL,
    target     text NOT NULL DEFAULT '',   -- the push device's id; '' for a Discord DM
    kind       text NOT NULL,
    title      text NOT NULL,
    body       text NOT NULL,
    url        text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    sent_at    timestamptz,
    UNIQUE (key, user_id, channel, target)
);
CREATE INDEX notification_deliveries_age ON notification_deliveries (created_at);
