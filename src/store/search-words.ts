// PostgreSQL's full-text index, written by tidings (migration 0018): each entry's tsvector and each
// searched phrase's tsquery are made here, from words found as SQLite's FTS5 `unicode61 remove_diacritics 2`
// tokenizer finds them (runs of letters, digits and private-use characters; lower case; accents dropped),
// so that both databases find the same entries ("cafe" finds "Café"). PostgreSQL's own 'simple' parser
// kept accents and cost PostgreSQL about 115 µs of CPU for a 1,000-character entry; this costs the
// worker about a quarter of that, and PostgreSQL only reads the literal.

// A word: letters, digits, private-use characters, and the combining marks inside a word (dropped below).
const WORD = /[\p{L}\p{N}\p{M}\p{Co}]+/gu;
const ASCII_WORD = /[a-z0-9]+/g;
const NOT_ASCII = /[^\x00-\x7f]/;
const MARKS = /\p{M}+/gu;

// PostgreSQL's limits (tsvector.h): a lexeme under 2 KB, positions 1-16383 (more are clamped), at most 256
// positions of one lexeme.
const MAX_WORD_BYTES = 2046;
const MAX_POSITION = 16383;
const MAX_POSITIONS = 256;

/** A word as the index holds it: accents gone (NFD, marks dropped); empty when nothing is left. */
function withoutMarks(word: string): string {
  return NOT_ASCII.test(word) ? word.normalize('NFD').replace(MARKS, '').normalize('NFC') : word;
}

/** Calls `take` with each word of `text`, in order, as the index holds it. */
function eachWord(text: string, take: (word: string) => void): void {
  const lower = text.toLowerCase();
  // most feeds' text is ASCII: a plain pattern and no normalizing
  const ascii = !NOT_ASCII.test(lower);
  const pattern = ascii ? ASCII_WORD : WORD;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(lower); match !== null; match = pattern.exec(lower)) {
    const word = ascii ? match[0] : withoutMarks(match[0]);
    if (word !== '') take(word);
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
  const positions = new Map<string, number[]>();
  let position = 0;
  eachWord(text, (word) => {
    position = Math.min(position + 1, MAX_POSITION);
    if (tooLong(word)) return;
    const list = positions.get(word);
    if (list === undefined) positions.set(word, [position]);
    else if (list.length < MAX_POSITIONS) list.push(position);
  });
  const parts: string[] = [];
  for (const [word, list] of positions) parts.push(`'${word}':${list.join(',')}`);
  return parts.join(' ');
}

/**
 * The tsquery of a searched phrase (every word, in order, next to each other: `'a' <-> 'b'`), or undefined
 * when it has no word.
 */
export function tsqueryLiteral(phrase: string): string | undefined {
  const words = searchWords(phrase).filter((word) => !tooLong(word));
  return words.length === 0 ? undefined : words.map((word) => `'${word}'`).join(' <-> ');
}
