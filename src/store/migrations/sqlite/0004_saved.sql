-- Saved (starred) entries and the credentials of the sync APIs (Google Reader, Fever): issue 15.
-- Keep it in step with ../postgres/0004_saved.sql.
-- migrate.ts splits this file on semicolons that end a line: keep one statement per such semicolon.

-- Saved is one state per entry (not per channel), shared by the web UI, Microsub and both APIs.
-- A saved entry must outlive its feed's unfollowing and any retention: ON DELETE RESTRICT makes a
-- delete that would take one with it fail instead of losing it. removeFeed keeps a feed that has saved
-- entries (paused, unsubscribed, its other entries deleted): see src/store/feeds.ts.
CREATE TABLE saved_entries (
  entry_id INTEGER PRIMARY KEY REFERENCES entries (id) ON DELETE RESTRICT,
  saved_at TEXT NOT NULL
);

CREATE INDEX saved_entries_saved_at ON saved_entries (saved_at);

-- Google Reader API sessions (ClientLogin's Auth token), stored by the SHA-256 of the token only.
-- Setting a new API password deletes them all.
CREATE TABLE api_tokens (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  token_hash TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  last_used_at TEXT
);

-- The apps sync by crawl time (first_seen_at) and page by entry id.
CREATE INDEX entries_first_seen_at ON entries (first_seen_at);
