// The numbers and words of Google Reader requests, checked (issue 22): a malformed one is a 400 with one
// line that says which, never "everything" (a continuation that is not ours read as "from the start", a
// negative ot read as "no ot") and never a 500 (19-digit ot and nt made Date throw). An empty value is
// the same as none, as apps send `ot=` and `c=` empty.

/** A request the API refuses: answered with its status and `greader: <message>`. */
export class BadRequest extends Error {
  constructor(
    message: string,
    readonly status: 400 | 404 = 400,
  ) {
    super(message);
    this.name = 'BadRequest';
  }
}

/** A value shown in a message: at most 50 characters, as JSON. */
export function shown(value: string): string {
  return JSON.stringify(value.length > 50 ? `${value.slice(0, 50)}...` : value);
}

function given(value: string | undefined): string | undefined {
  const text = value?.trim();
  return text === undefined || text === '' ? undefined : text;
}

/** `n`: a positive whole number, at most `max` (more is read as `max`); `fallback` when absent. */
export function countParam(value: string | undefined, fallback: number, max: number): number {
  const text = given(value);
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || /^0+$/.test(text))
    throw new BadRequest(`n must be a positive integer, not ${shown(text)}`);
  return text.length > 9 ? max : Math.min(Number(text), max);
}

/** `r`: `o` asks oldest first; `n`, `d` or nothing newest first. */
export function isOldestFirst(value: string | undefined): boolean {
  const text = given(value);
  if (text === undefined || text === 'n' || text === 'd') return false;
  if (text === 'o') return true;
  throw new BadRequest(`r must be o (oldest first) or n, not ${shown(text)}`);
}

/** `c`: the continuation tidings wrote (an entry id), or undefined when absent. */
export function continuationParam(value: string | undefined): number | undefined {
  const text = given(value);
  if (text === undefined) return undefined;
  if (!/^[1-9]\d{0,14}$/.test(text))
    throw new BadRequest(`c is not a continuation tidings gave: ${shown(text)}`);
  return Number(text);
}

/**
 * A time (`ot`, `nt`, `ts`) as an ISO string, or undefined when absent. Google wrote seconds; apps send
 * seconds, milliseconds, microseconds (`ts`, crawl times) and even nanoseconds, told apart by size.
 */
export function timeParam(value: string | undefined, name: string): string | undefined {
  const text = given(value);
  if (text === undefined) return undefined;
  // a fraction is dropped, as FreshRSS's intval does: older NetNewsWire sent timeIntervalSince1970 whole
  const whole = /^(\d{1,19})\.\d{1,9}$/.exec(text)?.[1] ?? text;
  if (!/^\d{1,19}$/.test(whole))
    throw new BadRequest(`${name} must be a time in seconds, not ${shown(text)}`);
  const n = Number(whole);
  const ms = n >= 1e17 ? n / 1e6 : n >= 1e14 ? n / 1e3 : n >= 1e11 ? n : n * 1000;
  return new Date(Math.floor(ms)).toISOString();
}

const MAX_LABEL_LENGTH = 200;
const MAX_TITLE_LENGTH = 1000;

/** A folder name the app gives (`a`, `r`, `dest`): at most 200 characters, as a channel name. */
export function checkedLabel(name: string | undefined): string | undefined {
  if (name !== undefined && name.length > MAX_LABEL_LENGTH)
    throw new BadRequest(`a folder name has at most ${MAX_LABEL_LENGTH} characters`);
  return name;
}

/** A feed title the app gives (`t`): trimmed, at most 1,000 characters; undefined when empty. */
export function titleParam(value: string | undefined): string | undefined {
  const text = given(value);
  if (text !== undefined && text.length > MAX_TITLE_LENGTH)
    throw new BadRequest(`a title has at most ${MAX_TITLE_LENGTH} characters`);
  return text;
}
