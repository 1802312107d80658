-- Each entry's tsvector is written by tidings (store/search-words.ts) with the words SQLite's FTS5
-- tokenizer finds, accents dropped, instead of by migration 0016's trigger with PostgreSQL's 'simple'
-- parser: both databases find the same entries ("cafe" finds "Café"), and the parser cost PostgreSQL
-- about 115 µs of CPU for every 1,000-character entry written. Entries indexed before keep the parser's
-- words; a search asks for both forms (reading/search.ts), so they are found as before.
DROP TRIGGER entries_search_vector ON entries;
DROP FUNCTION entries_search_vector();
