import { keepShape } from '../../html/index.js';

/** A JSON value read as far as the text allows, and the first error met on the way. */
export interface RecoveredJson {
  value: unknown;
  /** The first error: where, what, and the keys and indexes of the value it broke (`items`, 2, `title`). */
  error?: { offset: number; message: string; path: (string | number)[] };
}

const MAX_DEPTH = 256;

/**
 * Reads JSON that JSON.parse refused: raw control characters inside strings are accepted, a missing comma
 * between members or elements is read past, and at a syntax error inside an array of objects (a JSON
 * Feed's items) reading goes on at the next `},{`: one broken item does not take the items after it. At
 * any other error or at a cut the containers still open are closed, so that every complete member before
 * the problem is kept. The value being read when the text ended is dropped. The first error is reported.
 */
export function recoverJson(text: string): RecoveredJson {
  const reader = new Reader(text);
  const value = reader.value(0);
  const result: RecoveredJson = { value };
  if (reader.error) result.error = reader.error;
  return result;
}

class Stop extends Error {}

class Reader {
  pos = 0;
  /** The first error met, reported. */
  error: { offset: number; message: string; path: (string | number)[] } | undefined;
  /** The keys and indexes of the value being read. */
  private readonly path: (string | number)[] = [];
  /** True while an error unwinds the values being read (until an array of objects reads on). */
  private stopped = false;

  constructor(private readonly text: string) {}

  value(depth: number): unknown {
    this.skipSpace();
    const c = this.text[this.pos];
    try {
      if (c === '{') return this.object(depth + 1);
      if (c === '[') return this.array(depth + 1);
      if (c === '"') return this.string();
      return this.literal();
    } catch (err) {
      if (err instanceof Stop) return undefined;
      throw err;
    }
  }

  private fail(message: string): never {
    this.note(message);
    this.stopped = true;
    throw new Stop(message);
  }

  private skipSpace(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos] as string)) this.pos++;
  }

  private object(depth: number): Record<string, unknown> {
    if (depth > MAX_DEPTH) this.fail('JSON nests too deeply');
    const out: Record<string, unknown> = {};
    this.pos++;
    for (;;) {
      this.skipSpace();
      if (this.text[this.pos] === '}') {
        this.pos++;
        return out;
      }
      if (this.pos >= this.text.length) this.stopAt('the document ends inside an object');
      if (this.stopped) return out;
      let key: string;
      try {
        key = this.string();
        this.skipSpace();
        if (this.text[this.pos] !== ':') this.fail('expected ":" after a key');
        this.pos++;
      } catch (err) {
        if (err instanceof Stop) return out;
        throw err;
      }
      this.path.push(key);
      const value = this.value(depth);
      this.path.pop();
      if (value !== undefined && key !== '__proto__') out[key] = value;
      if (this.stopped) return out;
      this.skipSpace();
      if (this.text[this.pos] === ',') this.pos++;
      // a missing comma before the next key: noted, and read on
      else if (this.text[this.pos] === '"') this.note('expected "," between the members of an object');
      else if (this.text[this.pos] !== '}') {
        this.stopAt('expected "," or "}" in an object', key);
        return out;
      }
    }
  }

  private array(depth: number): unknown[] {
    if (depth > MAX_DEPTH) this.fail('JSON nests too deeply');
    const out: unknown[] = [];
    this.pos++;
    for (;;) {
      this.skipSpace();
      if (this.text[this.pos] === ']') {
        this.pos++;
        return out;
      }
      if (this.pos >= this.text.length) {
        this.stopAt('the document ends inside an array');
        return out;
      }
      const start = this.pos;
      this.path.push(out.length);
      const value = this.value(depth);
      this.path.pop();
      if (value !== undefined) out.push(value);
      // an object broken inside (an unescaped quote in a title): read on at the next object of the array
      if (this.stopped && this.text[start] === '{' && this.readOnAt(this.nextObject(start))) continue;
      if (this.stopped) return out;
      this.skipSpace();
      if (this.text[this.pos] === ',') this.pos++;
      // a missing comma before the next element: noted, and read on
      else if (this.text[this.pos] === '{' || this.text[this.pos] === '"')
        this.note('expected "," between the elements of an array');
      else if (this.text[this.pos] !== ']') {
        this.stopAt('expected "," or "]" in an array');
        return out;
      }
    }
  }

  /** `key`: the member just read, when the error follows its value (the field it broke). */
  private stopAt(message: string, key?: string): void {
    this.note(message, key === undefined ? this.path : [...this.path, key]);
    this.stopped = true;
  }

  /** An error here, at `path` (the value being read): reported when it is the first; read past unless stopped. */
  private note(message: string, path: readonly (string | number)[] = this.path): void {
    this.error ??= { offset: this.pos, message, path: [...path] };
  }

  /** Where the next object of an array starts after the one broken at `from` (`},{`), or -1. */
  private nextObject(from: number): number {
    const next = /\}\s*,\s*\{/g;
    next.lastIndex = Math.max(from + 1, this.pos);
    const found = next.exec(this.text);
    return found === null ? -1 : found.index + found[0].length - 1;
  }

  /** Reads on at `at` (an object's `{`), the error unwound; false when there is nowhere to read on. */
  private readOnAt(at: number): boolean {
    if (at < 0) return false;
    this.pos = at;
    this.stopped = false;
    return true;
  }

  private string(): string {
    if (this.text[this.pos] !== '"') this.fail('expected a string');
    const end = this.findStringEnd(this.pos + 1);
    const raw = this.text.slice(this.pos, end + 1);
    this.pos = end + 1;
    try {
      // raw control characters are not JSON, but feeds have them: escape them and read on
      return JSON.parse(
        raw.replace(/[\u0000-\u001f]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`),
      );
    } catch {
      return this.fail('a string holds an invalid escape');
    }
  }

  private findStringEnd(from: number): number {
    for (let i = from; i < this.text.length; i++) {
      const c = this.text.charCodeAt(i);
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) return i;
    }
    return this.fail('the document ends inside a string');
  }

  private literal(): unknown {
    const match = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(
      this.text.slice(this.pos, this.pos + 64),
    );
    if (!match)
      this.fail(this.pos >= this.text.length ? 'the document ends before a value' : 'unexpected character');
    this.pos += match[0].length;
    return JSON.parse(match[0]);
  }
}

keepShape(new Reader(''));
