-- Accounts, stats, tournaments, registrations, badges, teams and images.

CREATE TABLE images (
    id           text PRIMARY KEY,            -- sha256 of the bytes, hex: stored once
    content_type text NOT NULL,
    data         bytea NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE users (
    id               bigserial PRIMARY KEY,
    email            text NOT NULL UNIQUE CHECK (email = lower(email)),
    password_hash    text,
    name             text NOT NULL DEFAULT '',
    google_id        text UNIQUE,
    google_name      text,
    avatar_image_id  text REFERENCES images(id),
    discord_username text,
    discord_verified boolean NOT NULL DEFAULT false,
    email_verified   boolean NOT NULL DEFAULT false,
    role             text NOT NULL DEFAULT 'user' CHECK (role IN ('user', 'captain', 'admin')),
    token_version    integer NOT NULL DEFAULT 1,   -- raised on password change: older tokens die
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now()
);

-- One live code per e-mail; a new one replaces the old.
CREATE TABLE email_otps (
    user_id     bigint PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    code_mac    bytea NOT NULL,                -- HMAC-SHA256(server secret, user id | code)
    sent_at     timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz NOT NULL,
    attempts    integer NOT NULL DEFAULT 0
);

CREATE TABLE stats (
    user_id          bigint PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    player_name      text NOT NULL DEFAULT '',
    sk_id            text NOT NULL DEFAULT '',
    level            integer NOT NULL DEFAULT 0 CHECK (level >= 0),
    kills            integer NOT NULL DEFAULT 0 CHECK (kills >= 0),
    deaths           integer NOT NULL DEFAULT 0 CHECK (deaths >= 0),
    games_played     integer NOT NULL DEFAULT 0 CHECK (games_played >= 0),
    kd               numeric(10, 2) NOT NULL DEFAULT 0 CHECK (kd >= 0),
    cart_image_id    text REFERENCES images(id),
    screenshot_id    text REFERENCES images(id),
    description      text NOT NULL DEFAULT '',
    category         integer NOT NULL DEFAULT 1 CHECK (category BETWEEN 1 AND 4),
    preferred_role   text NOT NULL DEFAULT 'Player',
    verified         boolean NOT NULL DEFAULT false,  -- read from a screenshot, not typed
    updated_at       timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE tournaments (
    id              bigserial PRIMARY KEY,
    name            text NOT NULL UNIQUE,
    status          text NOT NULL DEFAULT 'registration'
                    CHECK (status IN ('registration', 'auction', 'matches', 'completed')),
    purse           integer NOT NULL DEFAULT 12000,
    -- raised in the same transaction as every change to the registered list,
    -- so any instance can tell whether a cached list is still current.
    roster_version  bigint NOT NULL DEFAULT 0,
    created_at      timestamptz NOT NULL DEFAULT now()
);

INSERT INTO tournaments (name) VALUES ('PPL7');

CREATE TABLE registrations (
    tournament_id bigint NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    user_id       bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tournament_id, user_id)
);
CREATE INDEX registrations_by_time ON registrations (tournament_id, created_at, user_id);

CREATE TABLE badges (
    id    bigserial PRIMARY KEY,
    name  text NOT NULL UNIQUE,
    icon  text NOT NULL,
    color text NOT NULL
);

INSERT INTO badges (name, icon, color) VALUES
    ('Season 3 Winner', 'trophy', '#FFD700'),
    ('Season 5 Winner', 'crown', '#00CED1');

CREATE TABLE user_badges (
    user_id  bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    badge_id bigint NOT NULL REFERENCES badges(id) ON DELETE CASCADE,
    PRIMARY KEY (user_id, badge_id)
);

CREATE TABLE teams (
    id              bigserial PRIMARY KEY,
    tournament_id   bigint NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    letter          text NOT NULL CHECK (letter ~ '^[A-H]$'),
    name            text NOT NULL,
    captain_user_id bigint REFERENCES users(id) ON DELETE SET NULL,
    logo            text NOT NULL DEFAULT '',
    UNIQUE (tournament_id, letter)
);

CREATE TABLE team_players (
    team_id       bigint NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
    tournament_id bigint NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    user_id       bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    credits       integer NOT NULL CHECK (credits BETWEEN 1100 AND 2200),
    PRIMARY KEY (team_id, user_id),
    UNIQUE (tournament_id, user_id)  -- at most one team per tournament
);

CREATE TABLE newsletter_subscribers (
    email      text PRIMARY KEY CHECK (email = lower(email)),
    created_at timestamptz NOT NULL DEFAULT now()
);

-- The presenter's current slide; one row.
CREATE TABLE deck_state (
    id         integer PRIMARY KEY DEFAULT 1 CHECK (id = 1),
    slide      integer NOT NULL DEFAULT 1 CHECK (slide BETWEEN 1 AND 10),
    updated_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO deck_state DEFAULT VALUES;
