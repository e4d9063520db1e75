-- The organisers' dashboard (docs/metrics.md): when each step of the
-- sign-up funnel was reached, how a player's stats were taken, the
-- reminders organisers sent, real-user page timings from the browsers, the
-- API's timings, and each instance's heartbeat.

-- When an account reached each step. Several paths set these flags (a code,
-- Google, the Discord link on the site or by the bot, the demo seed), so a
-- trigger keeps the times, whichever path it was: a step's time is when its
-- flag last became true, and it is cleared when the flag is.
ALTER TABLE users
    ADD COLUMN verified_at       timestamptz,
    ADD COLUMN discord_named_at  timestamptz,   -- a Discord username, typed or proven
    ADD COLUMN discord_linked_at timestamptz;   -- a proven Discord account

CREATE FUNCTION users_step_times() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        IF NEW.email_verified THEN NEW.verified_at := coalesce(NEW.verified_at, now()); END IF;
        IF coalesce(NEW.discord_username, '') <> '' THEN NEW.discord_named_at := coalesce(NEW.discord_named_at, now()); END IF;
        IF NEW.discord_id IS NOT NULL THEN NEW.discord_linked_at := coalesce(NEW.discord_linked_at, now()); END IF;
        RETURN NEW;
    END IF;
    IF NOT NEW.email_verified THEN
        NEW.verified_at := NULL;
    ELSIF NOT OLD.email_verified THEN
        NEW.verified_at := now();
    END IF;
    IF coalesce(NEW.discord_username, '') = '' THEN
        NEW.discord_named_at := NULL;
    ELSIF coalesce(OLD.discord_username, '') = '' THEN
        NEW.discord_named_at := now();
    END IF;
    IF NEW.discord_id IS NULL THEN
        NEW.discord_linked_at := NULL;
    ELSIF OLD.discord_id IS NULL OR OLD.discord_id <> NEW.discord_id THEN
        NEW.discord_linked_at := now();
    END IF;
    RETURN NEW;
END $$;

-- Accounts made before: the audit log's entries where it has them, else
-- the account's own times.
UPDATE users u SET
    verified_at = CASE WHEN u.email_verified THEN coalesce(
        (SELECT min(a.at) FROM audit_log a WHERE a.action = 'account.verified' AND a.target LIKE 'user ' || u.id || ' (%'),
        u.created_at) END,
    discord_named_at = CASE WHEN coalesce(u.discord_username, '') <> '' THEN coalesce(
        (SELECT min(a.at) FROM audit_log a WHERE a.action IN ('account.discord_named', 'account.discord_linked')
            AND a.target LIKE 'user ' || u.id || ' (%'),
        u.created_at) END,
    discord_linked_at = CASE WHEN u.discord_id IS NOT NULL THEN coalesce(
        (SELECT max(a.at) FROM audit_log a WHERE a.action = 'account.discord_linked' AND a.target LIKE 'user ' || u.id || ' (%'),
        u.updated_at) END;

CREATE TRIGGER users_step_times BEFORE INSERT OR UPDATE ON users
    FOR EACH ROW EXECUTE FUNCTION users_step_times();

-- A player's stats: when first saved, and how the figures saved were taken:
-- typed, read from a screenshot by Gemini or the offline reader, or read,
-- held for the player (a doubtful figure) and confirmed by them. "read" is a
-- reading saved before the reader was recorded.
ALTER TABLE stats
    ADD COLUMN created_at timestamptz NOT NULL DEFAULT now(),
    ADD COLUMN source     text NOT NULL DEFAULT 'typed'
        CHECK (source IN ('typed', 'gemini', 'offline', 'confirmed', 'read'));
UPDATE stats SET created_at = updated_at, source = CASE WHEN verified THEN 'read' ELSE 'typed' END;

-- A reading held for a signed-in player to confirm: their next save within
-- the hour is that confirmation. Kept a day at most.
CREATE TABLE stats_held (
    user_id bigint PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    reader  text NOT NULL,
    at      timestamptz NOT NULL DEFAULT now()
);

-- Reminders organisers sent to players stuck at a step of the funnel: one a
-- week per player and step.
CREATE TABLE reminders (
    id            bigserial PRIMARY KEY,
    user_id       bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    step          text NOT NULL,
    tournament_id bigint REFERENCES tournaments(id) ON DELETE CASCADE,
    sent_by       bigint REFERENCES users(id) ON DELETE SET NULL,
    channels      text[] NOT NULL,
    sent_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX reminders_by_user ON reminders (user_id, step, sent_at DESC);

-- Players who turned reminder e-mails off (the link in the mail).
CREATE TABLE reminder_optouts (
    user_id bigint PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    at      timestamptz NOT NULL DEFAULT now()
);

-- Real-user page timings (web-vitals from the browsers), as histograms: a
-- count per bucket of each metric on each page, per minute (kept two days)
-- and per hour (kept 400 days). What a night of many spectators adds is
-- counts, not rows.
CREATE TABLE rum_minutes (
    at     timestamptz NOT NULL,
    route  text NOT NULL,
    metric text NOT NULL,
    bucket smallint NOT NULL,
    n      bigint NOT NULL,
    PRIMARY KEY (at, route, metric, bucket)
);
CREATE TABLE rum_hours (LIKE rum_minutes INCLUDING ALL);

-- The API's own timings, as each instance's Prometheus histogram counted
-- them: per minute (two days) and hour (400 days), per instance and route,
-- the requests, the 5xx answers and the latency histogram's counts (the
-- buckets of pitlane_http_request_seconds, +Inf last, not cumulative).
CREATE TABLE api_minutes (
    at       timestamptz NOT NULL,
    instance text NOT NULL,
    route    text NOT NULL,
    requests bigint NOT NULL,
    errors   bigint NOT NULL,
    buckets  bigint[] NOT NULL,
    PRIMARY KEY (at, instance, route)
);
CREATE TABLE api_hours (LIKE api_minutes INCLUDING ALL);

-- The instances serving now: each writes its row every ten seconds with
-- what its hub holds (for the live night view).
CREATE TABLE instances (
    id                 text PRIMARY KEY,
    host               text NOT NULL,
    started_at         timestamptz NOT NULL,
    seen_at            timestamptz NOT NULL,
    connections        integer NOT NULL DEFAULT 0,
    subscriptions      jsonb NOT NULL DEFAULT '{}',
    events_in_per_sec  double precision NOT NULL DEFAULT 0,
    frames_out_per_sec double precision NOT NULL DEFAULT 0,
    slow_closes        bigint NOT NULL DEFAULT 0
);

-- The heartbeat: a row for every minute in which an instance was up and
-- reached the database (uptime where no outside monitor is set). 400 days.
CREATE TABLE heartbeats (
    at timestamptz PRIMARY KEY
);
