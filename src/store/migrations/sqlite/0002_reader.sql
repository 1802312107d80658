-- The reading side: author URLs for mute and block rules, full-text search, tokens and settings.
-- Keep it in step with ../postgres/0002_reader.sql; the search index is the one planned difference
-- (here an FTS5 table, there a tsvector column; migrate.test.ts lists both).
-- migrate.ts splits this file on semicolons that end a line: keep one statement per such semicolon.

-- The first author's URL, so that a mute or block rule naming a person hides their posts.
ALTER TABLE entries ADD COLUMN author_url TEXT;

-- A channel's timeline reads each feed's entries newest first, by (sort_at, id), and checks the author URL
-- against mute and block rules: with every column it needs in the index, SQLite answers a page from
-- the index alone and stops reading a feed once its entries fall below the page (100,000 entries: 2 ms
-- rather than 50 ms for a first page). It replaces the (feed_id, sort_at) index of 0001.
DROP INDEX entries_feed_sort_at;

CREATE INDEX entries_feed_timeline ON entries (feed_id, sort_at, id, author_url);

-- Full-text index of entries, keyed by entry id (rowid). Contentless: the text lives in entries already
-- and is not kept twice; contentless_delete=1 (SQLite 3.43+) lets recordPoll and removeFeed delete rows by
-- rowid. remove_diacritics 2 makes "cafe" find "café".
CREATE VIRTUAL TABLE entries_fts USING fts5(
  body,
  content = '',
  contentless_delete = 1,
  tokenize = 'unicode61 remove_diacritics 2'
);

-- Entries stored before this migration: index what the store has as plain text (the poller's searchText
-- also has the text of HTML content; entries get it when they next change).
INSERT INTO entries_fts (rowid, body)
SELECT id, substr(concat_ws(char(10), title, summary, content_text), 1, 100000) FROM entries;

-- One rule per channel (0: every channel), kind and URL, so that addFilter is idempotent. The URL comes
-- first: timelines look rules up by the entry's author URL and its feed's URLs.
CREATE UNIQUE INDEX filters_rule ON filters (url, kind, COALESCE(channel_id, 0));

-- Bearer tokens for the Microsub endpoint, stored by the SHA-256 of their secret only.
CREATE TABLE tokens (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  token_hash TEXT NOT NULL UNIQUE,
  scope TEXT NOT NULL,
  label TEXT,
  created_at TEXT NOT NULL,
  last_used_at TEXT,
  revoked_at TEXT
);

-- The owner's settings (password hash, secrets), one value per key.
CREATE TABLE settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
