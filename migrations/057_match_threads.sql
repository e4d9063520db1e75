-- The bot's Discord thread for each match, opened once: the row is taken
-- before the thread is opened (thread_id empty until Discord answers), so
-- a restart or a second event never opens a second one.
CREATE TABLE match_threads (
    match_id  bigint PRIMARY KEY REFERENCES matches(id) ON DELETE CASCADE,
    thread_id text NOT NULL DEFAULT '',
    opened_at timestamptz NOT NULL DEFAULT now()
);
