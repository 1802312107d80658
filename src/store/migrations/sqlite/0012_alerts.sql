-- Alerts (issue 25): where each user's alerts go (destinations), what is still to be sent (outbox), and
-- each feed's alert state, so that a feed sends one alert per change, never one per poll. Keep it in
-- step with ../postgres/0012_alerts.sql: same tables, columns and indexes.
-- migrate.ts splits this file on semicolons that end a line: keep one statement per such semicolon.

-- A user's webhook, email address or ntfy topic. `events`: a JSON list of the event types it takes,
-- NULL for every type (new types included). last_ok_at ... failing_since are its delivery health, for the
-- destinations page: failing_since is set by the first failure after a success and cleared by a success.
-- digest_sent_at: when the last daily digest was queued (digest = 'daily').
CREATE TABLE destinations (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('webhook', 'email', 'ntfy')),
  target TEXT NOT NULL,
  secret TEXT,
  events TEXT,
  digest TEXT CHECK (digest IN ('daily')),
  created_at TEXT NOT NULL,
  last_ok_at TEXT,
  last_error TEXT,
  last_error_at TEXT,
  failing_since TEXT,
  digest_sent_at TEXT
);

CREATE INDEX destinations_user ON destinations (user_id, id);

-- One message for one destination, written in the transaction that caused it (a poll) and sent after
-- it committed. A sender claims a row (claimed_by, claimed_until: a lease, as feeds have) before it sends
-- and marks it sent after; a claim that lapses (the sender died) lets another sender take the row.
-- next_attempt_at is NULL once the row is done: sent (sent_at) or given up (failed_at).
CREATE TABLE outbox (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  destination_id INTEGER NOT NULL REFERENCES destinations (id) ON DELETE CASCADE,
  event_type TEXT NOT NULL,
  payload TEXT NOT NULL,
  created_at TEXT NOT NULL,
  next_attempt_at TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  last_error TEXT,
  claimed_by TEXT,
  claimed_until TEXT,
  sent_at TEXT,
  failed_at TEXT
);

-- The senders' question, "what is due?", reads only the rows still to be sent.
CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE next_attempt_at IS NOT NULL;

CREATE INDEX outbox_destination ON outbox (destination_id, id);

-- A feed's alert state: its failed polls in a row and since when, and whether feed.failing, feed.gone and
-- feed.silent were sent. No row: a feed that is neither failing nor silent.
CREATE TABLE feed_alerts (
  feed_id INTEGER PRIMARY KEY REFERENCES feeds (id) ON DELETE CASCADE,
  failures INTEGER NOT NULL DEFAULT 0,
  failing_since TEXT,
  failing_sent_at TEXT,
  gone_sent_at TEXT,
  silent_sent_at TEXT
);
