-- The auction's flow (docs/league.md, "The auction's flow"): an organiser
-- may pause the auction (the open lot's countdown stops and keeps its time
-- left) and may let the captains nominate in turn.
CREATE TABLE auction_flows (
    tournament_id bigint PRIMARY KEY REFERENCES tournaments(id) ON DELETE CASCADE,
    -- Set while the auction is paused.
    paused_at     timestamptz,
    -- Nomination turns: NULL while organisers open every lot, else how
    -- long a captain has to nominate.
    turn_seconds  integer CHECK (turn_seconds BETWEEN 5 AND 600),
    -- The team whose turn it is, and when it runs out: no deadline while a
    -- lot is open; a paused turn keeps its time left instead.
    turn_letter   text CHECK (turn_letter ~ '^[A-H]$'),
    turn_ends_at  timestamptz,
    turn_left_ms  integer CHECK (turn_left_ms >= 0)
);

-- Every tournament has its flow, as it has its teams.
INSERT INTO auction_flows (tournament_id) SELECT id FROM tournaments ON CONFLICT DO NOTHING;

CREATE FUNCTION auction_flow_for_tournament() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO auction_flows (tournament_id) VALUES (NEW.id) ON CONFLICT DO NOTHING;
    RETURN NEW;
END $$;
CREATE TRIGGER auction_flow_for_tournament AFTER INSERT ON tournaments
    FOR EACH ROW EXECUTE FUNCTION auction_flow_for_tournament();

-- A lot paused with the auction keeps its countdown's time left here;
-- resuming sets its deadline that far ahead again.
ALTER TABLE auction_lots ADD COLUMN paused_left_ms integer CHECK (paused_left_ms >= 0);
