-- Subscriptions decide what is polled: a feed that no channel follows is not claimed, and after a while
-- it is forgotten (src/store/unfollowed.ts). This is when it lost its last subscription.
-- Keep it in step with ../sqlite/0003_subscriptions.sql.
ALTER TABLE feeds ADD COLUMN unfollowed_at TEXT COLLATE "C";

-- Feeds that no channel follows, found without reading every feed.
CREATE INDEX feeds_unfollowed ON feeds (unfollowed_at);

-- The title a person gave the feed (tidings feed ID --title, the web UI): polls keep it as the title.
ALTER TABLE feeds ADD COLUMN custom_title TEXT;
