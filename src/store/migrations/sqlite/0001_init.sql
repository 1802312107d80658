-- The first schema. Keep it in step with ../postgres/0001_init.sql: same tables, columns and indexes.
-- Timestamps are ISO 8601 UTC text written by Date.prototype.toISOString, so they sort as text.
-- JSON fields are text; booleans are INTEGER 0/1.
-- migrate.ts splits this file on semicolons that end a line: keep one statement per such semicolon.
-- AUTOINCREMENT: ids never come back after a delete, so a stale link never lands on another feed or entry.

CREATE TABLE feeds (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  url TEXT NOT NULL UNIQUE,
  original_url TEXT NOT NULL,
  title TEXT,
  site_url TEXT,
  description TEXT,
  icon_url TEXT,
  etag TEXT,
  last_modified TEXT,
  hub_url TEXT,
  self_url TEXT,
  status TEXT,
  http_status INTEGER,
  message TEXT,
  error_count INTEGER NOT NULL DEFAULT 0,
  last_checked_at TEXT,
  last_success_at TEXT,
  last_new_entry_at TEXT,
  next_check_at TEXT NOT NULL,
  retry_after_at TEXT,
  paused INTEGER NOT NULL DEFAULT 0 CHECK (paused IN (0, 1)),
  user_agent TEXT,
  poll_interval_seconds INTEGER,
  hint_interval_seconds INTEGER,
  cadence_seconds INTEGER,
  trusts_validators INTEGER NOT NULL DEFAULT 1 CHECK (trusts_validators IN (0, 1)),
  last_unconditional_at TEXT,
  body_hash TEXT,
  pending_move_url TEXT,
  pending_move_count INTEGER NOT NULL DEFAULT 0,
  diagnostics TEXT NOT NULL DEFAULT '[]',
  lease_owner TEXT,
  lease_expires_at TEXT,
  created_at TEXT NOT NULL
);

CREATE INDEX feeds_next_check_at ON feeds (next_check_at);

CREATE INDEX feeds_original_url ON feeds (original_url);

CREATE TABLE entries (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  feed_id INTEGER NOT NULL REFERENCES feeds (id) ON DELETE CASCADE,
  guid TEXT NOT NULL,
  url TEXT,
  title TEXT,
  summary TEXT,
  content_html TEXT,
  content_text TEXT,
  published TEXT,
  updated TEXT,
  sort_at TEXT NOT NULL,
  authors TEXT NOT NULL DEFAULT '[]',
  categories TEXT NOT NULL DEFAULT '[]',
  enclosures TEXT NOT NULL DEFAULT '[]',
  extra TEXT NOT NULL DEFAULT '{}',
  content_hash TEXT NOT NULL,
  url_key TEXT,
  first_seen_at TEXT NOT NULL,
  changed_at TEXT NOT NULL
);

CREATE UNIQUE INDEX entries_feed_guid ON entries (feed_id, guid);

CREATE INDEX entries_sort_at ON entries (sort_at);

CREATE INDEX entries_feed_sort_at ON entries (feed_id, sort_at);

CREATE INDEX entries_feed_url_key ON entries (feed_id, url_key);

CREATE TABLE channels (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  uid TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  position INTEGER NOT NULL
);

-- Microsub's special channel exists from the start and stays first.
INSERT INTO channels (uid, name, position) VALUES ('notifications', 'Notifications', 0);

CREATE TABLE subscriptions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  channel_id INTEGER NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
  feed_id INTEGER NOT NULL REFERENCES feeds (id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  UNIQUE (channel_id, feed_id)
);

CREATE INDEX subscriptions_feed ON subscriptions (feed_id);

CREATE TABLE entry_states (
  channel_id INTEGER NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
  entry_id INTEGER NOT NULL REFERENCES entries (id) ON DELETE CASCADE,
  is_read INTEGER NOT NULL DEFAULT 0 CHECK (is_read IN (0, 1)),
  is_removed INTEGER NOT NULL DEFAULT 0 CHECK (is_removed IN (0, 1)),
  updated_at TEXT NOT NULL,
  PRIMARY KEY (channel_id, entry_id)
);

CREATE INDEX entry_states_entry ON entry_states (entry_id);

CREATE TABLE filters (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  channel_id INTEGER REFERENCES channels (id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('mute', 'block')),
  url TEXT NOT NULL,
  created_at TEXT NOT NULL
);

CREATE INDEX filters_channel ON filters (channel_id);

CREATE TABLE heartbeats (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  feed_id INTEGER NOT NULL REFERENCES feeds (id) ON DELETE CASCADE,
  at TEXT NOT NULL,
  status TEXT NOT NULL,
  http_status INTEGER,
  new_count INTEGER NOT NULL DEFAULT 0,
  updated_count INTEGER NOT NULL DEFAULT 0,
  bytes INTEGER NOT NULL DEFAULT 0,
  duration_ms INTEGER NOT NULL DEFAULT 0,
  message TEXT,
  diagnostics TEXT NOT NULL DEFAULT '[]'
);

CREATE INDEX heartbeats_feed_at ON heartbeats (feed_id, at);
