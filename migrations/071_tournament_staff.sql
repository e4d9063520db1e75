-- Co-organisers: an organiser (ADMIN_EMAILS) grants an account the running
-- of one tournament. The grant names who made it; removing it removes the
-- role at the account's next request (its open websockets are checked again).
CREATE TABLE tournament_staff (
    tournament_id bigint NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    user_id       bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    granted_by    bigint REFERENCES users(id) ON DELETE SET NULL,
    granted_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tournament_id, user_id)
);
CREATE INDEX tournament_staff_by_user ON tournament_staff (user_id);
