-- A match's time agreed between its captains: one side proposes up to
-- three times, the other accepts one (it becomes the match's time) or
-- counters with its own. The standing proposal is kept on the match; a
-- time set by any way clears it.
ALTER TABLE matches
    ADD COLUMN proposed_by    bigint REFERENCES teams(id) ON DELETE SET NULL,
    ADD COLUMN proposed_times timestamptz[] NOT NULL DEFAULT '{}',
    -- Calendar feeds: how many times the match's time changed (an event's
    -- SEQUENCE), and when it last did.
    ADD COLUMN time_changes    integer NOT NULL DEFAULT 0,
    ADD COLUMN time_changed_at timestamptz;
