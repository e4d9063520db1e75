-- Accounts that last for years: server-side sessions behind every token,
-- password resets and e-mail changes by mailed codes, deletion under a
-- pseudonym, and organisers' second factors (TOTP and passkeys).

-- A session is one sign-in on one browser. Every token names its session
-- (the JWT's sid); a session ended here ends its token at once, REST and
-- websocket alike. Nothing of the client's address is kept.
CREATE TABLE sessions (
    id               bigserial PRIMARY KEY,
    user_id          bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    method           text NOT NULL,                  -- password, google, reset, ...
    client           text NOT NULL DEFAULT '',       -- "Chrome on Linux", from the User-Agent
    created_at       timestamptz NOT NULL DEFAULT now(),
    seen_at          timestamptz NOT NULL DEFAULT now(),
    expires_at       timestamptz NOT NULL,
    -- When a second factor (TOTP, a recovery code or a passkey) was used in
    -- this session: organisers act only on such sessions when they must.
    second_factor_at timestamptz
);
CREATE INDEX sessions_by_user ON sessions (user_id, id);
CREATE INDEX sessions_expiry ON sessions (expires_at);

-- Tokens are session-bound now: the token version is no longer read.
ALTER TABLE users DROP COLUMN token_version;

-- Codes mailed to an address serve a purpose each: verifying a sign-up or
-- resetting a password. Each purpose has its own code, tries and cooldown.
ALTER TABLE email_codes ADD COLUMN purpose text NOT NULL DEFAULT 'verify'
    CHECK (purpose IN ('verify', 'reset'));
ALTER TABLE email_codes DROP CONSTRAINT email_codes_pkey;
ALTER TABLE email_codes ADD PRIMARY KEY (address_mac, purpose);

-- A change of address waits for the code mailed to the new address.
CREATE TABLE email_changes (
    user_id    bigint PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    new_email  text NOT NULL CHECK (new_email = lower(new_email)),
    code_mac   bytea,                                -- NULL: a notice was sent instead of a code
    sent_at    timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    attempts   integer NOT NULL DEFAULT 0
);

-- A deleted account keeps its id (the league's history points at it) and
-- nothing personal: its e-mail is gone, its name is a pseudonym.
ALTER TABLE users ALTER COLUMN email DROP NOT NULL;
ALTER TABLE users ADD COLUMN deleted_at timestamptz;

-- Second factors. A TOTP secret is kept sealed (AES-GCM under a key derived
-- from JWT_SECRET); it counts once confirmed by a first code. last_step
-- refuses a code used twice.
CREATE TABLE totp_factors (
    user_id      bigint PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    sealed       bytea NOT NULL,
    confirmed_at timestamptz,
    last_step    bigint NOT NULL DEFAULT 0,
    created_at   timestamptz NOT NULL DEFAULT now()
);

-- One-time recovery codes, as HMACs; a used one is deleted.
CREATE TABLE recovery_codes (
    user_id  bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    code_mac bytea NOT NULL,
    PRIMARY KEY (user_id, code_mac)
);

-- Passkeys (WebAuthn credentials): the credential as go-webauthn keeps it.
CREATE TABLE passkeys (
    id           bytea PRIMARY KEY,                  -- the credential id
    user_id      bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name         text NOT NULL,
    credential   jsonb NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    last_used_at timestamptz
);
CREATE INDEX passkeys_by_user ON passkeys (user_id);

-- A WebAuthn ceremony in progress: its challenge, for five minutes.
CREATE TABLE webauthn_ceremonies (
    id         text PRIMARY KEY,
    user_id    bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    kind       text NOT NULL CHECK (kind IN ('register', 'assert')),
    data       jsonb NOT NULL,
    expires_at timestamptz NOT NULL
);
