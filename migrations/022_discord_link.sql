-- A Discord link is proven (OAuth2 on the site, or a code mailed to the
-- account's address and given back to the bot) or it is only a typed name.
-- discord_verified now means exactly "has a proven Discord account".
ALTER TABLE users ADD COLUMN discord_id text UNIQUE;
-- Names typed so far were never proven.
UPDATE users SET discord_verified = false;
ALTER TABLE users ADD CONSTRAINT users_discord_verified_is_link CHECK (discord_verified = (discord_id IS NOT NULL));

-- The site's OAuth2 flow: a state is bound to the account that started it,
-- lives ten minutes and is used once. Only its HMAC is kept.
CREATE TABLE discord_oauth_states (
    state_mac  bytea PRIMARY KEY,
    user_id    bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    verifier   text NOT NULL,                 -- PKCE code verifier
    expires_at timestamptz NOT NULL
);
CREATE INDEX discord_oauth_states_expiry ON discord_oauth_states (expires_at);

-- The bot's `!register <email>`: one live code per Discord account, mailed
-- to the account's address and given back to the bot in a DM.
CREATE TABLE discord_codes (
    discord_id       text PRIMARY KEY,
    discord_username text NOT NULL,
    user_id          bigint REFERENCES users(id) ON DELETE CASCADE,  -- NULL: no account to link (nothing was mailed)
    code_mac         bytea,                     -- HMAC(secret, user id | discord id | code)
    sent_at          timestamptz NOT NULL DEFAULT now(),
    expires_at       timestamptz NOT NULL,
    attempts         integer NOT NULL DEFAULT 0
);

-- What the bot announced, so that an event is announced once whichever
-- instance leads and however often the hub hands it over.
CREATE TABLE discord_announcements (
    key        text PRIMARY KEY,
    created_at timestamptz NOT NULL DEFAULT now()
);

-- Small facts the bot keeps across instances (the current Red Cap holder).
CREATE TABLE discord_state (
    key        text PRIMARY KEY,
    value      text NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
);
