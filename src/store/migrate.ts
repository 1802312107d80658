import { readdir, readFile } from 'node:fs/promises';
import { type Kysely, sql } from 'kysely';
import type { Backend } from './backend.js';
import type { Database } from './schema.js';

/** One migration file: its name (recorded in schema_migrations) and its statements in order. */
export interface Migration {
  name: string;
  statements: string[];
}

const MIGRATION_FILE = /^\d{4}_[a-z0-9_]+\.sql$/;

/**
 * The dialect's migration files in name order. The folder is found next to this module, so it works
 * from src/ (tests under tsx) and from dist/ (scripts/copy-assets.mjs copies the .sql files).
 */
export async function readMigrations(dialect: 'sqlite' | 'postgres'): Promise<Migration[]> {
  const dir = new URL(`./migrations/${dialect}/`, import.meta.url);
  const names = (await readdir(dir)).filter((name) => MIGRATION_FILE.test(name)).sort();
  return Promise.all(
    names.map(async (name) => ({
      name,
      statements: splitStatements(await readFile(new URL(name, dir), 'utf8')),
    })),
  );
}

/**
 * The statements of a migration file, split at semicolons that end a line, without comment lines.
 * better-sqlite3 prepares one statement at a time, so a file cannot be sent whole.
 */
export function splitStatements(text: string): string[] {
  return text
    .split(/;[ \t]*\r?$/m)
    .map((chunk) =>
      chunk
        .split(/\r?\n/)
        .filter((line) => !line.trim().startsWith('--'))
        .join('\n')
        .trim(),
    )
    .filter((statement) => statement.length > 0);
}

/**
 * Applies the migrations not yet recorded in schema_migrations, all in one transaction, and returns
 * their names. Safe to call again, and from two processes at once (the backend's lock serializes them).
 */
export async function migrate(db: Kysely<Database>, backend: Backend, now: Date): Promise<string[]> {
  const migrations = await readMigrations(backend.dialect);
  const run = () => applyMigrations(db, backend, migrations, now);
  return backend.aroundMigrations === undefined ? run() : backend.aroundMigrations(run);
}

/** The migrations not yet recorded, applied and recorded in one transaction; their names. */
function applyMigrations(
  db: Kysely<Database>,
  backend: Backend,
  migrations: readonly Migration[],
  now: Date,
): Promise<string[]> {
  return db.transaction().execute(async (trx) => {
    await backend.lockMigrations(trx);
    await trx.schema
      .createTable('schema_migrations')
      .ifNotExists()
      .addColumn('name', 'text', (column) => column.primaryKey())
      .addColumn('applied_at', 'text', (column) => column.notNull())
      .execute();
    const done = await trx.selectFrom('schema_migrations').select('name').execute();
    const doneNames = new Set(done.map((row) => row.name));
    const applied: string[] = [];
    for (const migration of migrations) {
      if (doneNames.has(migration.name)) continue;
      // The migration files are the one place where SQL is written by hand.
      for (const statement of migration.statements) await sql.raw(statement).execute(trx);
      await trx
        .insertInto('schema_migrations')
        .values({ name: migration.name, applied_at: now.toISOString() })
        .execute();
      applied.push(migration.name);
    }
    // A whole-database check costs a scan of every table: only when something changed.
    if (applied.length > 0) await backend.checkMigrations?.(trx);
    return applied;
  });
}
