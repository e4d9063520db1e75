-- Streams: the channels the site follows on a streaming platform (Twitch),
-- either linked by a player through the platform's OAuth2 or added by an
-- organiser as a tournament's official cast, with their live state as the
-- platform last told it.
CREATE TABLE stream_channels (
    id           bigserial PRIMARY KEY,
    platform     text NOT NULL CHECK (platform IN ('twitch')),
    channel_id   text NOT NULL,             -- the platform's id of the broadcaster
    login        text NOT NULL,             -- the channel's name in its address
    display_name text NOT NULL DEFAULT '',
    -- The player who proved the channel theirs; NULL for a league channel.
    user_id      bigint REFERENCES users(id) ON DELETE CASCADE,
    -- The player's OAuth2 tokens, sealed (AES-GCM bound to the row's
    -- platform and channel id); erased with the link or the account.
    tokens       bytea,
    live         boolean NOT NULL DEFAULT false,
    title        text NOT NULL DEFAULT '',
    viewers      integer NOT NULL DEFAULT 0 CHECK (viewers >= 0),
    thumbnail    text NOT NULL DEFAULT '',
    started_at   timestamptz,
    changed_at   timestamptz NOT NULL DEFAULT now(),  -- when live last flipped
    checked_at   timestamptz,                         -- when the platform last confirmed the state
    -- EventSub subscriptions are not asked for again before this (a refusal backs off).
    subscribe_after timestamptz NOT NULL DEFAULT '-infinity',
    created_at   timestamptz NOT NULL DEFAULT now(),
    UNIQUE (platform, channel_id)
);
CREATE UNIQUE INDEX stream_channels_player ON stream_channels (user_id, platform) WHERE user_id IS NOT NULL;
CREATE INDEX stream_channels_live ON stream_channels (platform) WHERE live;

-- A tournament's official channels (the league's casts).
CREATE TABLE tournament_channels (
    tournament_id bigint NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    channel_id    bigint NOT NULL REFERENCES stream_channels(id) ON DELETE CASCADE,
    added_by      bigint REFERENCES users(id) ON DELETE SET NULL,
    added_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tournament_id, channel_id)
);
CREATE INDEX tournament_channels_by_channel ON tournament_channels (channel_id);

-- OAuth2 flows under way: the state (kept as a MAC) and its PKCE verifier.
CREATE TABLE stream_oauth_states (
    state_mac  bytea PRIMARY KEY,
    user_id    bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    platform   text NOT NULL,
    verifier   text NOT NULL,
    expires_at timestamptz NOT NULL
);

-- Twitch EventSub subscriptions the site holds, one per channel and type.
CREATE TABLE eventsub_subscriptions (
    channel_id      bigint NOT NULL REFERENCES stream_channels(id) ON DELETE CASCADE,
    type            text NOT NULL,
    subscription_id text NOT NULL DEFAULT '',
    status          text NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (channel_id, type)
);

-- EventSub message ids already handled: a message seen before is a retry
-- and changes nothing. Messages older than ten minutes are refused anyway,
-- so an hour of ids is plenty.
CREATE TABLE eventsub_messages (
    id          text PRIMARY KEY,
    received_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX eventsub_messages_age ON eventsub_messages (received_at);
