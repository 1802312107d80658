import { badRequest } from './errors.js';

// `x[]` (PHP style, the spec's own examples) and `x[0]`, `x[1]` (Indigenous sends indexed arrays).
const ARRAY_KEY_RE = /^(.+?)\[(\d*)\]$/;

/** The longest value of any parameter: no id, cursor, URL, name or query needs more. */
export const MAX_VALUE_LENGTH = 4096;

/** The most values of one parameter (`entry[]`, `channels[]`): ten timeline pages of the largest size. */
export const MAX_VALUES = 1000;

/**
 * Request parameters by name, each with its values in order; array forms are folded into one name.
 * What no action can mean is a 400 here, for every action (issue 22): two values of a parameter that
 * takes one (which of them would win is a guess), more than MAX_VALUES values, a value longer than
 * MAX_VALUE_LENGTH.
 */
export class Params {
  readonly #values: ReadonlyMap<string, readonly string[]>;

  constructor(values: ReadonlyMap<string, readonly string[]>) {
    this.#values = values;
  }

  /** The value of a one-value parameter, trimmed; undefined when absent or empty, 400 for several. */
  one(name: string): string | undefined {
    const values = this.all(name);
    if (values.length > 1) throw badRequest(`${name} takes one value, not ${values.length}`);
    return values[0];
  }

  /** Every non-empty value of a parameter (`x`, `x[]`, `x[0]`... all count), trimmed. */
  all(name: string): string[] {
    const values = (this.#values.get(name) ?? []).map((v) => v.trim()).filter((v) => v !== '');
    if (values.length > MAX_VALUES) throw badRequest(`${name} has at most ${MAX_VALUES} values`);
    if (values.some((v) => v.length > MAX_VALUE_LENGTH))
      throw badRequest(`a value of ${name} has at most ${MAX_VALUE_LENGTH} characters`);
    return values;
  }

  has(name: string): boolean {
    return this.#values.has(name);
  }
}

/**
 * Folds name/value pairs into parameters: `x`, `x[]` and `x[N]` all add to `x`; indexed values are
 * put in index order (a client may send `x[1]` before `x[0]`), others keep their arrival order.
 */
export function foldPairs(pairs: Iterable<readonly [string, string]>): Map<string, string[]> {
  const collected = new Map<string, { index: number | undefined; value: string }[]>();
  for (const [key, value] of pairs) {
    const match = ARRAY_KEY_RE.exec(key);
    const name = match?.[1] ?? key;
    const index = match?.[2] ? Number(match[2]) : undefined;
    const list = collected.get(name) ?? [];
    list.push({ index, value });
    collected.set(name, list);
  }
  const folded = new Map<string, string[]>();
  for (const [name, list] of collected) {
    const allIndexed = list.every((item) => item.index !== undefined);
    const ordered = allIndexed ? [...list].sort((a, b) => (a.index ?? 0) - (b.index ?? 0)) : list;
    folded.set(
      name,
      ordered.map((item) => item.value),
    );
  }
  return folded;
}

/** Name/value pairs of a JSON body: scalars as strings, arrays as repeated names; nested objects are skipped. */
export function jsonPairs(body: unknown): [string, string][] {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw badRequest('a JSON body must be an object');
  const pairs: [string, string][] = [];
  for (const [key, value] of Object.entries(body)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (typeof item === 'string') pairs.push([key, item]);
      else if (typeof item === 'number' || typeof item === 'boolean') pairs.push([key, String(item)]);
    }
  }
  return pairs;
}

/**
 * The parameters of a request: the query string, and for a POST its body (form-encoded, multipart or
 * JSON), the body winning for a name given in both. Together sends a POST's parameters in the query
 * string with an empty body, so the query string always counts.
 */
export async function readParams(request: Request): Promise<Params> {
  const query = foldPairs(new URL(request.url).searchParams);
  if (request.method !== 'POST') return new Params(query);
  const body = foldPairs(await bodyPairs(request));
  return new Params(new Map([...query, ...body]));
}

async function bodyPairs(request: Request): Promise<[string, string][]> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'multipart/form-data') {
    const form = await request.formData().catch(() => {
      throw badRequest('the multipart body cannot be read');
    });
    return [...form].flatMap(([k, v]) => (typeof v === 'string' ? [[k, v] as [string, string]] : []));
  }
  const text = await request.text();
  if (text.trim() === '') return [];
  if (type === 'application/json' || type.endsWith('+json')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw badRequest('the JSON body is not valid JSON');
    }
    return jsonPairs(parsed);
  }
  // form-encoded, and bodies sent without a Content-Type (read as the form they nearly always are)
  return [...new URLSearchParams(text)];
}
