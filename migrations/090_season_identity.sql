-- A season's own identity: the name it goes by on the site, its hero line,
-- a short description, the dates it runs and an optional banner image, set
-- by an organiser. An empty display name is the tournament's name, an empty
-- hero the default built from the display name (internal/tournament).
ALTER TABLE tournaments
    ADD COLUMN display_name    text NOT NULL DEFAULT '' CHECK (char_length(display_name) <= 40),
    ADD COLUMN hero            text NOT NULL DEFAULT '' CHECK (char_length(hero) <= 80),
    ADD COLUMN description     text NOT NULL DEFAULT '' CHECK (char_length(description) <= 500),
    ADD COLUMN starts_on       date,
    ADD COLUMN ends_on         date,
    ADD COLUMN banner_image_id text REFERENCES images(id),
    ADD CONSTRAINT tournaments_dates_in_order CHECK (ends_on >= starts_on);

-- PPL7, the league's first season here, keeps the look it has always had.
UPDATE tournaments SET display_name = 'PPLS-6.0', hero = 'PPLS-6.0 is back'
 WHERE name = 'PPL7' AND display_name = '' AND hero = '';
