-- The audit log: every organiser and captain action and every account
-- security event, written in the transaction of the change it records.
CREATE TABLE audit_log (
    id            bigserial PRIMARY KEY,
    at            timestamptz NOT NULL DEFAULT now(),
    actor_id      bigint REFERENCES users(id) ON DELETE SET NULL,
    actor_name    text NOT NULL,
    action        text NOT NULL,
    tournament_id bigint REFERENCES tournaments(id) ON DELETE CASCADE,
    target        text NOT NULL DEFAULT '',
    data          jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX audit_log_newest ON audit_log (id DESC);
CREATE INDEX audit_log_by_tournament ON audit_log (tournament_id, id DESC);

-- Roles are worked out in one place (accounts.Service.Actor): admin from
-- ADMIN_EMAILS, captain from teams. The column was never read.
ALTER TABLE users DROP COLUMN role;
