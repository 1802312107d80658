-- Issue 22: each entry's tsvector is made by PostgreSQL from the row it is written into, by a trigger,
-- instead of from a copy of the entry's text sent with every insert and update. The text the index
-- holds is unchanged: title, summary, plain-text content and the Media RSS description (extra.media), as
-- the poller's searchText joins them and SQLite's FTS5 table holds them, its first 100,000 characters
-- (search-index.ts). Sending that copy was a fifth of the bytes two workers sent PostgreSQL in a poll run.
-- migrate.ts splits this file on semicolons that end a line: the function body keeps its own on one line.
CREATE FUNCTION entries_search_vector() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.search_vector := to_tsvector('simple', substr(concat_ws(chr(10), NEW.title, NEW.summary, NEW.content_text, CASE WHEN NEW.extra LIKE '%"media"%' THEN NEW.extra::jsonb #>> '{media,description}' END), 1, 100000)); RETURN NEW; END $$;

-- Feed-health alert entries (guid prefix tidings:alert:, notify/alert-entries.ts) stay out of the index,
-- as they stay out of SQLite's.
CREATE TRIGGER entries_search_vector BEFORE INSERT OR UPDATE OF title, summary, content_text, extra
ON entries FOR EACH ROW WHEN (NEW.guid NOT LIKE 'tidings:alert:%') EXECUTE FUNCTION entries_search_vector();
