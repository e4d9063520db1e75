-- Codes are kept per address, whether or not the address has an account:
-- every address then has the same cooldown, tries and answers, so
-- verify-otp and resend-otp cannot tell unknown, pending and verified
-- addresses apart. The address itself is not kept, only an HMAC of it.
CREATE TABLE email_codes (
    address_mac bytea PRIMARY KEY,                 -- HMAC(server secret, address)
    user_id     bigint REFERENCES users(id) ON DELETE CASCADE, -- the pending account the code verifies
    code_mac    bytea,                             -- HMAC(server secret, user id | code); NULL: no code
    contested   boolean NOT NULL DEFAULT false,    -- a second sign-up with another password came while it was live
    sent_at     timestamptz NOT NULL DEFAULT 'epoch', -- the last mail (code or notice) to the address
    expires_at  timestamptz NOT NULL DEFAULT 'epoch',
    attempts    integer NOT NULL DEFAULT 0,        -- wrong tries since the last mail
    day_start   timestamptz NOT NULL DEFAULT now(),
    day_count   integer NOT NULL DEFAULT 0,        -- mails since day_start
    touched_at  timestamptz NOT NULL DEFAULT now() -- for pruning rows nobody uses
);
CREATE INDEX email_codes_touched ON email_codes (touched_at);

-- Live codes of the old table are dropped: a player who signed up in the
-- last ten minutes asks for a new one.
DROP TABLE email_otps;
