-- Accounts (issue 24): several people on one instance. Each user has their own channels (and through
-- them subscriptions, read state and unread counts), rules, tokens, API sessions, saved entries and
-- personal settings; feeds and entries stay shared, polled once whoever follows them. What the one owner
-- had becomes user 1's. Keep it in step with ../postgres/0011_users.sql; the rebuilt tables below are the
-- planned difference (migrate.test.ts lists them).
-- migrate.ts splits this file on semicolons that end a line: keep one statement per such semicolon.
--
-- SQLite cannot drop a UNIQUE written into a column nor change a primary key: channels and saved_entries
-- are rebuilt (new table, copy, drop, rename). DROP TABLE with foreign keys on would delete the rows of
-- every table that references it (ON DELETE CASCADE): the SQLite backend runs migrations with foreign keys
-- off and checks them before the commit (backend.ts aroundMigrations, checkMigrations).
-- ADD COLUMN cannot drop its DEFAULT afterwards without a rebuild: the DEFAULT 1 that gives existing rows
-- to user 1 stays on user_id columns below; the store always writes user_id itself.

CREATE TABLE users (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  is_admin INTEGER NOT NULL DEFAULT 0 CHECK (is_admin IN (0, 1)),
  me TEXT,
  pending INTEGER NOT NULL DEFAULT 0 CHECK (pending IN (0, 1)),
  created_at TEXT NOT NULL
);

-- Names are ASCII (users.ts USER_NAME_PATTERN) and compared case-insensitively: "Ann" and "ann" cannot
-- both exist. lower() folds ASCII the same way in SQLite and PostgreSQL.
CREATE UNIQUE INDEX users_name ON users (lower(name));

-- Microsub requests carry a token whose IndieAuth profile URL names the user.
CREATE INDEX users_me ON users (me);

CREATE TABLE user_settings (
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (user_id, key)
);

-- User 1 owns what the database holds. Named after the Google Reader API user when that name is a valid
-- user name, else 'admin'. A database without a password and without subscriptions has had no owner yet:
-- user 1 is pending, and the first user created takes it over (users.ts add).
INSERT INTO users (id, name, is_admin, pending, created_at)
VALUES (
  1,
  COALESCE(
    (
      SELECT value FROM settings
      WHERE key = 'api.user' AND length(value) BETWEEN 1 AND 64 AND value NOT GLOB '*[^A-Za-z0-9._-]*'
    ),
    'admin'
  ),
  1,
  NOT EXISTS (SELECT 1 FROM settings WHERE key IN ('owner.password', 'api.password'))
    AND NOT EXISTS (SELECT 1 FROM subscriptions),
  strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
);

-- The owner's own settings become user 1's; the instance's secrets (web.session_secret,
-- feed_icons.url_secret) stay in settings.
INSERT INTO user_settings (user_id, key, value)
SELECT 1, key, value FROM settings
WHERE key IN ('owner.password', 'web.sessions.not_before', 'api.user', 'api.password', 'api.fever_key',
  'subscriptions.default_channel');

DELETE FROM settings
WHERE key IN ('owner.password', 'web.sessions.not_before', 'api.user', 'api.password', 'api.fever_key',
  'subscriptions.default_channel');

-- Channels belong to a user; a uid (Microsub's channel id) is unique per user, so that every user has
-- their own 'notifications'. The copy keeps ids, and sqlite_sequence keeps the highest id ever given
-- (AUTOINCREMENT: a deleted channel's id never comes back).
CREATE TABLE channels_new (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  uid TEXT NOT NULL,
  name TEXT NOT NULL,
  position INTEGER NOT NULL
);

INSERT INTO channels_new (id, user_id, uid, name, position)
SELECT id, 1, uid, name, position FROM channels;

DELETE FROM sqlite_sequence WHERE name = 'channels_new';

INSERT INTO sqlite_sequence (name, seq)
SELECT 'channels_new', seq FROM sqlite_sequence WHERE name = 'channels';

DROP TABLE channels;

ALTER TABLE channels_new RENAME TO channels;

CREATE UNIQUE INDEX channels_user_uid ON channels (user_id, uid);

-- A subscription's own title and pause: two users following one feed name and pause it each for
-- themselves. feeds.paused stays what polling reads: true when every subscription of the feed is paused.
ALTER TABLE subscriptions ADD COLUMN title TEXT;

ALTER TABLE subscriptions ADD COLUMN paused INTEGER NOT NULL DEFAULT 0 CHECK (paused IN (0, 1));

UPDATE subscriptions
SET paused = feeds.paused, title = feeds.custom_title
FROM feeds
WHERE feeds.id = subscriptions.feed_id;

-- The title moved to the subscriptions; a feed nobody follows keeps its own until it is followed again.
UPDATE feeds SET custom_title = NULL
WHERE custom_title IS NOT NULL AND EXISTS (SELECT 1 FROM subscriptions WHERE subscriptions.feed_id = feeds.id);

-- Saved is one state per user and entry. The entry stays protected (ON DELETE RESTRICT, see 0004); the
-- user's saved entries go with the user.
CREATE TABLE saved_entries_new (
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  entry_id INTEGER NOT NULL REFERENCES entries (id) ON DELETE RESTRICT,
  saved_at TEXT NOT NULL,
  PRIMARY KEY (user_id, entry_id)
);

INSERT INTO saved_entries_new (user_id, entry_id, saved_at)
SELECT 1, entry_id, saved_at FROM saved_entries;

DROP INDEX saved_entries_saved_at;

DROP TABLE saved_entries;

ALTER TABLE saved_entries_new RENAME TO saved_entries;

-- A user's saved entries newest first, paged by (saved_at, entry_id).
CREATE INDEX saved_entries_saved_at ON saved_entries (user_id, saved_at, entry_id);

-- Whether anyone saved an entry (retention, removing a feed) without reading every user's.
CREATE INDEX saved_entries_entry ON saved_entries (entry_id);

-- Mute and block rules are a user's: a rule for every channel (channel_id NULL) names no channel to
-- find its user by.
ALTER TABLE filters ADD COLUMN user_id INTEGER NOT NULL DEFAULT 1 REFERENCES users (id) ON DELETE CASCADE;

DROP INDEX filters_rule;

CREATE UNIQUE INDEX filters_rule ON filters (url, kind, user_id, COALESCE(channel_id, 0));

-- Microsub tokens and Google Reader API sessions act for one user.
ALTER TABLE tokens ADD COLUMN user_id INTEGER NOT NULL DEFAULT 1 REFERENCES users (id) ON DELETE CASCADE;

ALTER TABLE api_tokens ADD COLUMN user_id INTEGER NOT NULL DEFAULT 1 REFERENCES users (id) ON DELETE CASCADE;

-- The channel's user, copied into its rows so that a user's "All unread" and search read their own index
-- range. Every existing channel is user 1's: the default fills the column without rewriting the table.
-- No foreign key: the rows go with their channel (channel_entries.channel_id).
ALTER TABLE channel_entries ADD COLUMN user_id INTEGER NOT NULL DEFAULT 1;

DROP INDEX channel_entries_unread_all;

CREATE INDEX channel_entries_unread_all ON channel_entries (user_id, sort_at, entry_id)
WHERE is_read = 0 AND is_removed = 0 AND is_hidden = 0;

DROP INDEX channel_entries_entry;

CREATE INDEX channel_entries_entry ON channel_entries (entry_id, user_id, is_removed, is_hidden);
