// PostgreSQL's full-text index, written by tidings (migration 0018): each entry's tsvector and each
// searched phrase's tsquery are made here, from words found as SQLite's FTS5 `unicode61 remove_diacritics 2`
// tokenizer finds them (runs of letters, digits and private-use characters; lower case; accents dropped),
// so that both databases find the same entries ("cafe" finds "Café"). PostgreSQL's own 'simple' parser
// kept accents and cost PostgreSQL about 115 µs of CPU for a 1,000-character entry; this costs the
// worker about a quarter of that, and PostgreSQL only reads the literal.

// A word: letters, digits, private-use characters, and the combining marks inside a word (dropped below).
// Scanned by hand: a regular expression over the whole text, with a Map entry per word, cost the worker
// more than the rest of storing an entry (issue 22); the test checks the scan against the expression.
const WORD_CHAR = /^[\p{L}\p{N}\p{M}\p{Co}]$/u;
const MARKS = /\p{M}+/gu;

// PostgreSQL's limits (tsvector.h): a lexeme under 2 KB, positions 1-16383 (more are clamped), at most 256
// positions of one lexeme.
const MAX_WORD_BYTES = 2046;
const MAX_POSITION = 16383;
const MAX_POSITIONS = 256;

/** The length (1 or 2 code units) of the word character at `at` of `text`, 0 when it is none. */
function wordCharAt(text: string, at: number): number {
  const code = text.charCodeAt(at);
  if (code < 0x80) return (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39) ? 1 : 0;
  const point = text.codePointAt(at) as number;
  const char = point > 0xffff ? text.slice(at, at + 2) : text.charAt(at);
  return WORD_CHAR.test(char) ? char.length : 0;
}

/** Calls `take` with each word of `text`, in order, as the index holds it (lower case, accents gone). */
function eachWord(text: string, take: (word: string) => void): void {
  const lower = text.toLowerCase();
  const end = lower.length;
  let at = 0;
  while (at < end) {
    let length = wordCharAt(lower, at);
    if (length === 0) {
      at++;
      continue;
    }
    const start = at;
    let ascii = true;
    do {
      if (length === 2 || lower.charCodeAt(at) >= 0x80) ascii = false;
      at += length;
      length = at < end ? wordCharAt(lower, at) : 0;
    } while (length !== 0);
    const word = lower.slice(start, at);
    // most words are ASCII: no normalizing
    const kept = ascii ? word : word.normalize('NFD').replace(MARKS, '').normalize('NFC');
    if (kept !== '') take(kept);
  }
}

/** The words of a text as the index holds them, in order. */
export function searchWords(text: string): string[] {
  const words: string[] = [];
  eachWord(text, (word) => {
    words.push(word);
  });
  return words;
}

function tooLong(word: string): boolean {
  return word.length * 3 > MAX_WORD_BYTES && Buffer.byteLength(word) > MAX_WORD_BYTES;
}

/**
 * The tsvector of a text, as PostgreSQL's input syntax: `'word':1,4 'other':2`. Words cannot hold a quote,
 * a backslash or a space, so none is escaped. A word too long for PostgreSQL is left out, as its own
 * parser leaves it out; positions still count it, so a phrase never spans it.
 */
export function tsvectorLiteral(text: string): string {
  // each word's index in `lists`, whose entries grow as `'word':1,4`
  const index = new Map<string, number>();
  const lists: string[] = [];
  const counts: number[] = [];
  let position = 0;
  eachWord(text, (word) => {
    if (position < MAX_POSITION) position++;
    if (tooLong(word)) return;
    const at = index.get(word);
    if (at === undefined) {
      index.set(word, lists.length);
      lists.push(`'${word}':${position}`);
      counts.push(1);
    } else if ((counts[at] as number) < MAX_POSITIONS) {
      lists[at] += `,${position}`;
      counts[at] = (counts[at] as number) + 1;
    }
  });
  return lists.join(' ');
}

/**
 * The tsquery of a searched phrase (every word, in order, next to each other: `'a' <-> 'b'`), or undefined
 * when it has no word.
 */
export function tsqueryLiteral(phrase: string): string | undefined {
  const words = searchWords(phrase).filter((word) => !tooLong(word));
  return words.length === 0 ? undefined : words.map((word) => `'${word}'`).join(' <-> ');
}
