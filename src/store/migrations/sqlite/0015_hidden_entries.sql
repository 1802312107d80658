-- Rules (issue 25): the entries a `hide` rule hid from its user. They are stored removed in the user's
-- channels (entry_states), which Microsub and the web UI never show; this record keeps them out of the
-- apps' streams too (store/sync), where an entry removed through Microsub is listed as read. Keep it in
-- step with ../postgres/0015_hidden_entries.sql: same tables, columns and indexes.
-- migrate.ts splits this file on semicolons that end a line: keep one statement per such semicolon.
CREATE TABLE hidden_entries (
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  entry_id INTEGER NOT NULL REFERENCES entries (id) ON DELETE CASCADE,
  rule_id INTEGER REFERENCES rules (id) ON DELETE SET NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (user_id, entry_id)
);

CREATE INDEX hidden_entries_entry ON hidden_entries (entry_id);
