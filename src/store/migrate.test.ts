import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readMigrations, splitStatements } from './migrate.js';

/** The tables (with their columns) and indexes a migration creates, by name, in order. */
function createdNames(statements: readonly string[]): string[] {
  return statements.flatMap((statement) => {
    const match = /^CREATE (?:UNIQUE )?(TABLE|INDEX) (\w+)/.exec(statement);
    if (match === null) return [];
    const columns = [...statement.matchAll(/^\s+([a-z_]+) [A-Z]/gm)].map((m) => m[1]);
    return [`${match[1]} ${match[2]}${columns.length ? ` (${columns.join(', ')})` : ''}`];
  });
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

  it('has the same files, tables and indexes for SQLite and PostgreSQL', async () => {
    const sqlite = await readMigrations('sqlite');
    const postgres = await readMigrations('postgres');
    assert.ok(sqlite.length > 0);
    assert.deepEqual(
      postgres.map((m) => m.name),
      sqlite.map((m) => m.name),
    );
    for (const [index, migration] of sqlite.entries()) {
      assert.deepEqual(createdNames(postgres[index]?.statements ?? []), createdNames(migration.statements));
    }
  });
});
