-- An audit entry about a player names them by their account as well as by
-- the name it shows: erasing an account rewrites the entries about it by
-- this id, never by a name (anyone may call themselves like a rival, a team
-- or a tournament).
ALTER TABLE audit_log ADD COLUMN subject_id bigint REFERENCES users(id) ON DELETE SET NULL;
CREATE INDEX audit_log_subject ON audit_log (subject_id) WHERE subject_id IS NOT NULL;
-- Erasure and the account's export read an account's own entries.
CREATE INDEX audit_log_actor ON audit_log (actor_id) WHERE actor_id IS NOT NULL;

-- The entries written before name their player in their data: by id, or by
-- the lot the player was up in.
UPDATE audit_log a SET subject_id = u.id
  FROM users u
 WHERE a.action IN ('registration.promote', 'registration.withdraw', 'registration.checkin',
                    'tournament.staff_granted', 'tournament.staff_revoked', 'auction.open_lot', 'auction.nominate',
                    'player.tier', 'team.substitute_request', 'team.substitute_refused', 'team.substitute_signed')
   AND a.data->>'user_id' ~ '^[0-9]{1,18}$' AND u.id = (a.data->>'user_id')::bigint;
UPDATE audit_log a SET subject_id = u.id
  FROM users u
 WHERE a.action = 'team.replacement' AND a.data->>'replaces' ~ '^[0-9]{1,18}$' AND u.id = (a.data->>'replaces')::bigint;
UPDATE audit_log a SET subject_id = l.user_id
  FROM auction_lots l
 WHERE a.action IN ('auction.bid', 'auction.close_lot', 'auction.void', 'auction.undo_sale')
   AND a.data->>'lot' ~ '^[0-9]{1,18}$' AND l.id = (a.data->>'lot')::bigint AND l.tournament_id = a.tournament_id;

-- Whether an account is a player (it saved stats or is on a season's list)
-- and the seasons of an account are read by the account.
CREATE INDEX registrations_by_user ON registrations (user_id);
