-- A code contested by a second sign-up with another password verifies only
-- with the first one's password; codes per address are counted per day.
ALTER TABLE email_otps
    ADD COLUMN contested boolean NOT NULL DEFAULT false,
    ADD COLUMN day_start timestamptz NOT NULL DEFAULT now(),
    ADD COLUMN day_count integer NOT NULL DEFAULT 1;
