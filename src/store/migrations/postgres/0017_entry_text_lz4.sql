-- An entry's text columns are compressed with LZ4 instead of pglz, PostgreSQL's default: a row over
-- about 2 kB is compressed as it is written, and pglz took a tenth of PostgreSQL's CPU while two workers
-- stored 25,000 new entries of the feed farm (bench:poll workers, perf); LZ4 compresses several times
-- faster and reads back faster. Values stored before keep pglz until they are written again.
-- LZ4 needs PostgreSQL 14 or later built with it (Debian's and the official images are); elsewhere the
-- columns keep pglz and nothing else changes. pg_dump then writes the columns' method: restore such a
-- dump into a server without LZ4 with --no-toast-compression.
-- migrate.ts splits this file on semicolons that end a line: the block keeps its own on one line.
DO $$ BEGIN ALTER TABLE entries ALTER COLUMN content_html SET COMPRESSION lz4, ALTER COLUMN content_text SET COMPRESSION lz4, ALTER COLUMN summary SET COMPRESSION lz4; EXCEPTION WHEN feature_not_supported OR syntax_error OR invalid_parameter_value THEN RAISE NOTICE 'tidings: LZ4 is not available; entries keep pglz'; END $$;
