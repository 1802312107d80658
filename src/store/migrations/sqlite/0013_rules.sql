-- Rules (issue 25): a user's saved search that acts on new entries, and the entries rules sent to a
-- user's Microsub notifications channel. Keep it in step with ../postgres/0013_rules.sql: same tables,
-- columns and indexes.
-- migrate.ts splits this file on semicolons that end a line: keep one statement per such semicolon.

-- A rule: the search syntax's query, optionally limited to one of the user's channels or to one feed,
-- and what it does to a matching entry when the entry is first stored (store/rules/apply.ts).
CREATE TABLE rules (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  query TEXT NOT NULL,
  channel_id INTEGER REFERENCES channels (id) ON DELETE CASCADE,
  feed_id INTEGER REFERENCES feeds (id) ON DELETE CASCADE,
  action TEXT NOT NULL CHECK (action IN ('read', 'save', 'hide', 'notify')),
  created_at TEXT NOT NULL
);

CREATE INDEX rules_user ON rules (user_id, id);

-- An entry a `notify` rule put into a notifications channel, whose feed that channel need not follow:
-- the record channel_entries' row for it is kept from (the doctor counts it as expected, not stray).
CREATE TABLE notified_entries (
  channel_id INTEGER NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
  entry_id INTEGER NOT NULL REFERENCES entries (id) ON DELETE CASCADE,
  rule_id INTEGER REFERENCES rules (id) ON DELETE SET NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (channel_id, entry_id)
);

CREATE INDEX notified_entries_entry ON notified_entries (entry_id);
