-- End-of-match screenshots, each uploaded for one match by one of its sides:
-- a report may cite only its own match's, a side may upload a handful, and
-- those no report cites are forgotten after a day (match.prune_proofs).
CREATE TABLE match_proofs (
    match_id    bigint NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
    image_id    text NOT NULL REFERENCES images(id),
    team_id     bigint NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
    uploaded_by bigint REFERENCES users(id) ON DELETE SET NULL,
    uploaded_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (match_id, image_id)
);
CREATE INDEX match_proofs_by_age ON match_proofs (uploaded_at);

-- Proofs cited before this table existed stay citable.
INSERT INTO match_proofs (match_id, image_id, team_id, uploaded_at)
SELECT id, proof_image_id, reported_by, coalesce(reported_at, now()) FROM matches
 WHERE proof_image_id IS NOT NULL AND reported_by IS NOT NULL
ON CONFLICT DO NOTHING;
