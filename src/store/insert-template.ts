import { type Compilable, CompiledQuery, type Transaction } from 'kysely';
import type { Database } from './schema.js';

type Plain = string | number | bigint | null;
type Row = Record<string, unknown>;

// Compiled SQL by insert name (with its dialect: the SQL is the dialect's), column list and row count.
const templates = new Map<string, string>();
const MAX_TEMPLATES = 512;

/**
 * Runs a multi-row insert whose rows all have the same plain columns in the same order, compiling it
 * with Kysely only the first time a shape (columns and row count) is seen and binding new values to
 * the same SQL afterwards. Building and compiling the query was a sixth of the main thread's time while
 * a poll run stored 25,000 new entries (bench:poll); the SQL is Kysely's own, as its compiler wrote it.
 * The first compilation of each shape is checked to bind exactly the rows' values, column by column,
 * row by row; any other shape, or a value that is not plain (a raw SQL expression), goes through Kysely
 * as usual.
 */
export async function insertUniform<R>(
  trx: Transaction<Database>,
  name: string,
  rows: readonly Row[],
  build: (rows: readonly Row[]) => Compilable<R>,
): Promise<R[]> {
  const first = rows[0];
  if (first === undefined) return [];
  const columns = Object.keys(first);
  const values = flatten(rows, columns);
  if (values === undefined) return (await trx.executeQuery(build(rows).compile())).rows;
  const key = `${name}|${columns.join(',')}|${rows.length}`;
  let sql = templates.get(key);
  if (sql === undefined) {
    const compiled = build(rows).compile();
    if (!sameValues(compiled.parameters, values)) return (await trx.executeQuery(compiled)).rows;
    sql = compiled.sql;
    if (templates.size >= MAX_TEMPLATES) templates.clear();
    templates.set(key, sql);
  }
  return (await trx.executeQuery<R>(CompiledQuery.raw(sql, values))).rows;
}

/** The rows' values column by column, row by row; undefined when a row differs in shape or holds a non-plain value. */
function flatten(rows: readonly Row[], columns: readonly string[]): Plain[] | undefined {
  const values: Plain[] = [];
  for (const row of rows) {
    let count = 0;
    for (const _ in row) count++;
    if (count !== columns.length) return undefined;
    for (const column of columns) {
      const value = row[column];
      if (
        value !== null &&
        typeof value !== 'string' &&
        typeof value !== 'number' &&
        typeof value !== 'bigint'
      )
        return undefined;
      values.push(value);
    }
  }
  return values;
}

function sameValues(parameters: readonly unknown[], values: readonly Plain[]): boolean {
  return parameters.length === values.length && parameters.every((p, i) => p === values[i]);
}
