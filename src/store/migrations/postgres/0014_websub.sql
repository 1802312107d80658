-- WebSub subscriptions (issue 26): one a feed, the subscription tidings asked a hub for, so that the hub
-- pushes the feed's new entries to ${TIDINGS_BASE_URL}/websub/<token>. Keep it in step with
-- ../sqlite/0014_websub.sql: same tables, columns and indexes.
-- migrate.ts splits this file on semicolons that end a line: keep one statement per such semicolon.

-- token: the unguessable last part of the callback URL; secret: the hub.secret deliveries are signed
-- with. state: pending (asked, not verified yet), active (verified; expires_at), denied (the hub said no),
-- failed (the hub could not be asked or never verified; message says why). pending_mode: the request
-- waiting for the hub's verification of intent (subscribe or unsubscribe), NULL when none waits.
-- next_action_at: when the keeper looks again (renew at 80% of the lease, retry, give up waiting); a
-- process takes that work by moving it (a claim). unreliable_at: a poll found an entry the hub never
-- pushed; the feed is polled as if it had no hub.
CREATE TABLE websub_subscriptions (
  feed_id BIGINT PRIMARY KEY REFERENCES feeds (id) ON DELETE CASCADE,
  token TEXT NOT NULL,
  secret TEXT NOT NULL,
  hub TEXT NOT NULL,
  topic TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'active', 'denied', 'failed')),
  pending_mode TEXT CHECK (pending_mode IN ('subscribe', 'unsubscribe')),
  requested_at TEXT COLLATE "C" NOT NULL,
  lease_seconds INTEGER,
  verified_at TEXT COLLATE "C",
  expires_at TEXT COLLATE "C",
  next_action_at TEXT COLLATE "C",
  message TEXT,
  unreliable_at TEXT COLLATE "C",
  last_delivery_at TEXT COLLATE "C"
);

CREATE UNIQUE INDEX websub_subscriptions_token ON websub_subscriptions (token);

CREATE INDEX websub_subscriptions_next_action ON websub_subscriptions (next_action_at);
