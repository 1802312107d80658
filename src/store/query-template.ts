import { type Compilable, CompiledQuery, type QueryResult } from 'kysely';

type Plain = string | number | bigint | null;
type Row = Record<string, unknown>;

/** What runs the queries: a transaction (or Kysely instance) of any database. */
export interface Executor {
  executeQuery<R>(query: CompiledQuery<R>): Promise<QueryResult<R>>;
}

// Compiled SQL by key (with its dialect: the SQL is the dialect's).
const templates = new Map<string, string>();
const MAX_TEMPLATES = 512;
let fallbacks = 0;

/**
 * How many runTemplate calls of this process went through Kysely because their values were not the
 * template's (a caller that forgot a value it binds, or a value that is not plain): tests check that
 * the hot queries never do.
 */
export function templateFallbacks(): number {
  return fallbacks;
}

/**
 * Runs the query that `build` makes, whose bound values are exactly `values` in this order, compiling it
 * with Kysely only the first time `key` is seen and binding new values to the same SQL afterwards. `key`
 * must name everything that shapes the SQL (dialect, statement, columns, row count). The first
 * compilation is checked to bind exactly `values`; should it not, or should a value not be plain (a
 * raw SQL expression), the query goes through Kysely as usual, every time.
 */
export async function runTemplate<R>(
  trx: Executor,
  key: string,
  values: readonly unknown[],
  build: () => Compilable<R>,
): Promise<QueryResult<R>> {
  if (!values.every(isPlain)) {
    fallbacks++;
    return trx.executeQuery(build().compile());
  }
  let sql = templates.get(key);
  if (sql === undefined) {
    const compiled = build().compile();
    if (!sameValues(compiled.parameters, values)) {
      fallbacks++;
      return trx.executeQuery(compiled);
    }
    sql = compiled.sql;
    if (templates.size >= MAX_TEMPLATES) templates.clear();
    templates.set(key, sql);
  }
  return trx.executeQuery<R>(CompiledQuery.raw(sql, values as Plain[]));
}

// Compiled SQL by key, with where each bound value comes from (runTemplateOf): an input, or a constant.
type Source = { input: number } | { constant: Plain };
const mapped = new Map<string, { sql: string; sources: Source[] } | 'unmappable'>();

/** Inputs no query binds of itself: a compilation with them shows where each input is bound. */
function probes(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `\u0000tidings-probe-${i}`);
}

/**
 * Runs the query `build` makes of `inputs` (a user's id bound in several subqueries, say), compiling it
 * with Kysely only the first time `key` is seen. That time it is also compiled with probe inputs: the
 * two compilations show which input each bound value is, and which values are constants; later calls
 * bind their own inputs in the same places. A query whose SQL changes with its inputs, or that binds a
 * value made from an input (a LIKE pattern, say), goes through Kysely every time.
 */
export async function runTemplateOf<R>(
  trx: Executor,
  key: string,
  inputs: readonly Plain[],
  build: (inputs: readonly Plain[]) => Compilable<R>,
): Promise<QueryResult<R>> {
  let known = mapped.get(key);
  if (known === undefined) {
    known = learn(build, inputs.length);
    if (mapped.size >= MAX_TEMPLATES) mapped.clear();
    mapped.set(key, known);
  }
  if (known === 'unmappable') {
    fallbacks++;
    return trx.executeQuery(build(inputs).compile());
  }
  const values = known.sources.map((source) => ('input' in source ? inputs[source.input] : source.constant));
  return trx.executeQuery<R>(CompiledQuery.raw(known.sql, values as Plain[]));
}

/** Where each bound value of `build`'s query comes from, learnt from two compilations. */
function learn<R>(
  build: (inputs: readonly Plain[]) => Compilable<R>,
  count: number,
): { sql: string; sources: Source[] } | 'unmappable' {
  const probe = probes(count);
  const other = probes(count).map((value) => `${value}'`);
  let first: CompiledQuery<R>;
  let second: CompiledQuery<R>;
  try {
    first = build(probe).compile();
    second = build(other).compile();
  } catch {
    // a builder that checks its inputs (a date, say) refuses the probes
    return 'unmappable';
  }
  if (first.sql !== second.sql || first.parameters.length !== second.parameters.length) return 'unmappable';
  const sources: Source[] = [];
  for (const [at, value] of first.parameters.entries()) {
    const input = probe.indexOf(value as string);
    if (input !== -1 && second.parameters[at] === other[input]) sources.push({ input });
    else if (isPlain(value) && value === second.parameters[at] && !String(value).includes('\u0000'))
      sources.push({ constant: value as Plain });
    else return 'unmappable';
  }
  return { sql: first.sql, sources };
}

/**
 * Runs a multi-row insert whose rows all have the same plain columns in the same order through
 * `runTemplate`. Building and compiling the query was a sixth of the main thread's time while a poll
 * run stored 25,000 new entries (bench:poll); the SQL is Kysely's own, as its compiler wrote it.
 */
export async function insertUniform<R>(
  trx: Executor,
  name: string,
  rows: readonly Row[],
  build: (rows: readonly Row[]) => Compilable<R>,
): Promise<R[]> {
  const first = rows[0];
  if (first === undefined) return [];
  const columns = Object.keys(first);
  const values = flatten(rows, columns);
  if (values === undefined) return (await trx.executeQuery(build(rows).compile())).rows;
  const key = `insert:${name}|${columns.join(',')}|${rows.length}`;
  return (await runTemplate(trx, key, values, () => build(rows))).rows;
}

/** The rows' values column by column, row by row; undefined when a row differs in shape. */
function flatten(rows: readonly Row[], columns: readonly string[]): unknown[] | undefined {
  const values: unknown[] = [];
  for (const row of rows) {
    let count = 0;
    for (const _ in row) count++;
    if (count !== columns.length) return undefined;
    for (const column of columns) values.push(row[column]);
  }
  return values;
}

function isPlain(value: unknown): boolean {
  return (
    value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint'
  );
}

function sameValues(parameters: readonly unknown[], values: readonly unknown[]): boolean {
  return parameters.length === values.length && parameters.every((p, i) => p === values[i]);
}
