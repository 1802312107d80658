-- Search newest first, stopping after a page (issue 14). The FTS5 index's rowids become search keys that
-- sort as the reader does: the minute of the entry's sort_at in the high bits, its id in the low 32 bits
-- (src/store/search-key.ts computes the same key; keep the two in step). FTS5 then lists a word's
-- entries newest first from any point, and a search reads one page of them instead of every match.
-- PostgreSQL keeps its index in the entry's row: it has no 0008.
--
-- The index holds no text of its own (contentless): it is written again from what the entries store,
-- their title, summary and plain text (as migration 0002 did). Entries stored before their HTML's text
-- was kept (issue 14) are found by title and summary until they change.

INSERT INTO entries_fts (entries_fts) VALUES ('delete-all');

INSERT INTO entries_fts (rowid, body)
SELECT
  (min(max(((coalesce(unixepoch(sort_at), 0) - (coalesce(unixepoch(sort_at), 0) < 0) * 59) / 60), -1073741824), 1073741823) << 32) | id,
  substr(concat_ws(char(10), title, summary, content_text), 1, 100000)
FROM entries;
