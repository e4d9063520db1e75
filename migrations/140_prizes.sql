-- A season's prize pool: its currency (ISO 4217) and, in integer minor
-- units, the prize of each final place (split[1] the winner's) and the
-- named awards; the entry fee (0: none) and how a team's share is paid.
CREATE TABLE prize_pools (
    tournament_id bigint PRIMARY KEY REFERENCES tournaments(id) ON DELETE CASCADE,
    currency      char(3) NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    split         bigint[] NOT NULL DEFAULT '{}' CHECK (0 < ALL (split) OR cardinality(split) = 0),
    awards        jsonb NOT NULL DEFAULT '[]',
    entry_fee     bigint NOT NULL DEFAULT 0 CHECK (entry_fee >= 0),
    -- since when the fee is asked: registrations older than it owe nothing
    fee_since     timestamptz,
    team_share    text NOT NULL DEFAULT 'even' CHECK (team_share IN ('even', 'captain')),
    updated_at    timestamptz NOT NULL DEFAULT now()
);

-- The one ledger of a season's money: every funding, refund, payout and fee
-- is a row, amount always positive, its kind saying which way it goes, and
-- the balance after it written beside it (never below zero): the server
-- checks the written balances against the sums whenever it reads them.
CREATE TABLE prize_ledger (
    id            bigserial PRIMARY KEY,
    tournament_id bigint NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    kind          text NOT NULL CHECK (kind IN ('funding', 'refund', 'payout', 'fee')),
    source        text NOT NULL DEFAULT '' CHECK (source IN ('', 'organiser', 'sponsor', 'entry_fee', 'contribution')),
    amount        bigint NOT NULL CHECK (amount > 0),
    currency      char(3) NOT NULL,
    balance       bigint NOT NULL CHECK (balance >= 0),
    user_id       bigint REFERENCES users(id) ON DELETE SET NULL,
    ref           text NOT NULL DEFAULT '',
    note          text NOT NULL DEFAULT '',
    created_by    bigint REFERENCES users(id) ON DELETE SET NULL,
    created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX prize_ledger_by_tournament ON prize_ledger (tournament_id, id);
