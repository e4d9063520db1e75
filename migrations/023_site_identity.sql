-- The database's identity: the live layer (Redis) keeps each topic's seq and
-- history under it, so a database that is dropped and made again (or
-- restored, or a second one sharing the Redis) never meets seqs it did not
-- write: its events would otherwise be skipped as already delivered.
CREATE TABLE site_identity (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  id       text NOT NULL
);
INSERT INTO site_identity (id)
VALUES (substr(md5(random()::text || clock_timestamp()::text || current_database()), 1, 16));
