-- Feed icons (issue 16): found while polling, served by tidings itself at /icons/{feedId}. A row with
-- empty bytes records a search that found none, so that it is not repeated on every poll.
CREATE TABLE feed_icons (
  feed_id INTEGER PRIMARY KEY REFERENCES feeds (id) ON DELETE CASCADE,
  content_type TEXT NOT NULL,
  bytes BLOB NOT NULL,
  fetched_at TEXT NOT NULL
);
