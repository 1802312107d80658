-- Reading at scale (issue 14). Keep it in step with ../postgres/0006_reading_scale.sql.
-- migrate.ts splits this file on semicolons that end a line: keep one statement per such semicolon.

-- Search in every channel walks entries newest first by (sort_at, id): PostgreSQL needs the id in the
-- index to stop after a page (SQLite's index held it as the rowid already).
DROP INDEX entries_sort_at;

CREATE INDEX entries_sort_at_id ON entries (sort_at, id);

-- A mute or block rule added or removed finds the entries of the author it names.
CREATE INDEX entries_author_url ON entries (author_url);

-- One row per entry of every feed a channel follows, with what the channel shows of it. entry_states
-- stays the record of read and removed state (it outlives a subscription); these rows copy it, and add
-- is_hidden (a mute or block rule names the entry's author, feed or site), worked out when the entry is
-- stored or a rule changes, never per entry at read time. Written by the store's write methods in the
-- same transaction as the change (see channel-entries.ts); `tidings doctor` checks them.
CREATE TABLE channel_entries (
  channel_id INTEGER NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
  entry_id INTEGER NOT NULL REFERENCES entries (id) ON DELETE CASCADE,
  feed_id INTEGER NOT NULL,
  sort_at TEXT NOT NULL,
  is_read INTEGER NOT NULL DEFAULT 0 CHECK (is_read IN (0, 1)),
  is_removed INTEGER NOT NULL DEFAULT 0 CHECK (is_removed IN (0, 1)),
  is_hidden INTEGER NOT NULL DEFAULT 0 CHECK (is_hidden IN (0, 1)),
  PRIMARY KEY (channel_id, entry_id)
);

-- A channel's timeline, newest first: a page reads as many index rows as it shows.
CREATE INDEX channel_entries_shown ON channel_entries (channel_id, sort_at, entry_id)
WHERE is_removed = 0 AND is_hidden = 0;

-- Unread only: the next unread entry without stepping over the read ones.
CREATE INDEX channel_entries_unread ON channel_entries (channel_id, sort_at, entry_id)
WHERE is_read = 0 AND is_removed = 0 AND is_hidden = 0;

-- One feed in a channel (Microsub source, unsubscribe), or in every channel (a rule naming the feed): at most the feed's entries. No flags in it, so that
-- marking read does not rewrite it.
CREATE INDEX channel_entries_feed ON channel_entries (feed_id, channel_id, sort_at, entry_id);

-- Search in every channel walks entries newest first and asks whether some channel shows each one.
CREATE INDEX channel_entries_entry ON channel_entries (entry_id, is_removed, is_hidden);

INSERT INTO channel_entries (channel_id, entry_id, feed_id, sort_at, is_read, is_removed, is_hidden)
SELECT s.channel_id, e.id, e.feed_id, e.sort_at,
  COALESCE(st.is_read, 0), COALESCE(st.is_removed, 0),
  EXISTS (
    SELECT 1 FROM filters
    WHERE filters.url IN (e.author_url, f.url, f.site_url)
      AND COALESCE(filters.channel_id, 0) IN (0, s.channel_id)
  )
FROM subscriptions s
JOIN entries e ON e.feed_id = s.feed_id
JOIN feeds f ON f.id = e.feed_id
LEFT JOIN entry_states st ON st.channel_id = s.channel_id AND st.entry_id = e.id;

-- Unread entries per channel and feed, kept in the same transaction as every write that changes them.
-- A pair without a row counts 0.
CREATE TABLE unread_counts (
  channel_id INTEGER NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
  feed_id INTEGER NOT NULL REFERENCES feeds (id) ON DELETE CASCADE,
  unread INTEGER NOT NULL,
  PRIMARY KEY (channel_id, feed_id)
);

INSERT INTO unread_counts (channel_id, feed_id, unread)
SELECT channel_id, feed_id, COUNT(*) FROM channel_entries
WHERE is_read = 0 AND is_removed = 0 AND is_hidden = 0
GROUP BY channel_id, feed_id;

-- Retention removes old read entries; their guids stay here so that the next poll does not store them
-- again as new.
CREATE TABLE removed_guids (
  feed_id INTEGER NOT NULL REFERENCES feeds (id) ON DELETE CASCADE,
  guid TEXT NOT NULL,
  removed_at TEXT NOT NULL,
  PRIMARY KEY (feed_id, guid)
);

-- Saved (starred) entries come with migration 0004 of the sync APIs; retention never removes them. The
-- same definition here, so that retention can ask whichever migration created it.
CREATE TABLE IF NOT EXISTS saved_entries (
  entry_id INTEGER PRIMARY KEY REFERENCES entries (id) ON DELETE CASCADE,
  saved_at TEXT NOT NULL
);
