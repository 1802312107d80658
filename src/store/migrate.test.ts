import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readMigrations, splitStatements } from './migrate.js';

/**
 * The tables (with their columns), virtual tables, added columns and indexes a migration creates, and
 * the tables and indexes it drops, by name, in order.
 */
function createdNames(statements: readonly string[]): string[] {
  return statements.flatMap((statement) => {
    const added = /^ALTER TABLE (\w+) ADD COLUMN (\w+)/.exec(statement);
    if (added !== null) return [`COLUMN ${added[1]}.${added[2]}`];
    const dropped = /^DROP (TABLE|INDEX) (\w+)/.exec(statement);
    if (dropped !== null) return [`DROP ${dropped[1]} ${dropped[2]}`];
    const match = /^CREATE (?:UNIQUE )?(TABLE|INDEX|VIRTUAL TABLE|FUNCTION|TRIGGER) (\w+)/.exec(statement);
    if (match === null) return [];
    if (match[1] === 'VIRTUAL TABLE' || match[1] === 'FUNCTION' || match[1] === 'TRIGGER')
      return [`${match[1]} ${match[2]}`];
    const columns = [...statement.matchAll(/^\s+([a-z_]+) [A-Z]/gm)].map((m) => m[1]);
    return [`${match[1]} ${match[2]}${columns.length ? ` (${columns.join(', ')})` : ''}`];
  });
}

/**
 * The first planned difference: the full-text index. SQLite keeps it in an FTS5 table, PostgreSQL in a
 * tsvector column with a GIN index, which a trigger fills from the row. Each name must exist in its
 * dialect, so this list cannot go stale.
 */
const SEARCH_INDEX: Record<'sqlite' | 'postgres', Record<string, readonly string[]>> = {
  sqlite: { '0002_reader.sql': ['VIRTUAL TABLE entries_fts'] },
  postgres: {
    '0002_reader.sql': ['COLUMN entries.search_vector', 'INDEX entries_search'],
    '0016_search_vector_trigger.sql': ['FUNCTION entries_search_vector', 'TRIGGER entries_search_vector'],
  },
};

/**
 * The second planned difference: SQLite cannot drop a column's UNIQUE nor change a primary key, so 0011
 * rebuilds channels and saved_entries (new table, copy, drop, rename) where PostgreSQL adds user_id to
 * them. Each name must exist in its dialect, so this list cannot go stale either.
 */
const REBUILT_TABLES: Record<'sqlite' | 'postgres', Record<string, readonly string[]>> = {
  sqlite: {
    '0011_users.sql': [
      'TABLE channels_new (id, user_id, uid, name, position)',
      'DROP TABLE channels',
      'TABLE saved_entries_new (user_id, entry_id, saved_at)',
      'DROP TABLE saved_entries',
    ],
  },
  postgres: { '0011_users.sql': ['COLUMN channels.user_id', 'COLUMN saved_entries.user_id'] },
};

/** The names a migration creates apart from its dialect's planned differences, which must all be there. */
function sharedNames(dialect: 'sqlite' | 'postgres', name: string, statements: readonly string[]): string[] {
  const names = createdNames(statements);
  const own = [...(SEARCH_INDEX[dialect][name] ?? []), ...(REBUILT_TABLES[dialect][name] ?? [])];
  for (const item of own) assert.ok(names.includes(item), `${dialect} ${name} lacks ${item}`);
  return names.filter((item) => !own.includes(item));
}

describe('migrations', () => {
  it('splits a migration file at semicolons that end a line, dropping comments', () => {
    const text =
      "-- head\nCREATE TABLE a (x TEXT DEFAULT ';');\n\n-- note\nINSERT INTO a VALUES (1);\n-- tail\n";
    assert.deepEqual(splitStatements(text), [
      "CREATE TABLE a (x TEXT DEFAULT ';')",
      'INSERT INTO a VALUES (1)',
    ]);
  });

  it('reads added columns, dropped indexes and virtual tables as created names', () => {
    assert.deepEqual(
      createdNames([
        'ALTER TABLE entries ADD COLUMN author_url TEXT',
        'DROP INDEX entries_feed_sort_at',
        "CREATE VIRTUAL TABLE entries_fts USING fts5(\n  body,\n  content = ''\n)",
      ]),
      ['COLUMN entries.author_url', 'DROP INDEX entries_feed_sort_at', 'VIRTUAL TABLE entries_fts'],
    );
  });

  it('has the same files, tables and indexes for SQLite and PostgreSQL', async () => {
    const sqlite = await readMigrations('sqlite');
    const postgres = await readMigrations('postgres');
    assert.ok(sqlite.length > 0);
    assert.deepEqual(
      postgres.map((m) => m.name),
      sqlite.map((m) => m.name),
    );
    for (const [index, migration] of sqlite.entries()) {
      assert.deepEqual(
        sharedNames('postgres', migration.name, postgres[index]?.statements ?? []),
        sharedNames('sqlite', migration.name, migration.statements),
      );
    }
  });
});
