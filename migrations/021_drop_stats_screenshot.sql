-- stats.screenshot_id was never written or read: an uploaded screenshot is
-- read and dropped, only the kart image is kept.
ALTER TABLE stats DROP COLUMN screenshot_id;
