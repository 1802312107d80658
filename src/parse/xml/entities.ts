import { decodeHTMLStrict } from 'entities/decode';

// Tables without a prototype: `&toString;` and `&constructor;` found Object.prototype's functions in
// plain objects and put their source text into the feed.
/** XML's five predefined entities, by name. */
export const XML_ENTITIES = table({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" });

// HTML 4 (which feeds were written against) maps &lang; and &rang; to U+2329/U+232A; HTML5 moved them.
const HTML4_ANGLES = table({ lang: '\u2329', rang: '\u232a' });

function table(entries: Record<string, string>): Readonly<Record<string, string>> {
  return Object.freeze(Object.assign(Object.create(null) as Record<string, string>, entries));
}

/** Caps the characters that entity references may add to one document (billion laughs by repetition). */
export const MAX_EXPANDED_CHARS = 4_000_000;

/** Resolves an entity name to its text: XML's five, the DOCTYPE's, then HTML's named entities. */
export function lookupEntity(name: string, declared: Map<string, string> | undefined): string | undefined {
  const xml = XML_ENTITIES[name] ?? HTML4_ANGLES[name];
  if (xml !== undefined) return xml;
  const own = declared?.get(name);
  if (own !== undefined) return own;
  const ref = `&${name};`;
  const html = decodeHTMLStrict(ref);
  return html === ref ? undefined : html;
}

/** Records the entities a document uses that XML itself does not define. */
export interface EntityUse {
  /** HTML entities used without a DOCTYPE that declares them (not well-formed XML). */
  undefinedNames: string[];
  /** Names that neither XML, the DOCTYPE nor HTML define: kept as written (not well-formed XML). */
  unknownNames: string[];
  expandedChars: number;
  overflowed: boolean;
}

// The document whose entities the table below answers for, while its strict pass runs.
let current: { declared: Map<string, string> | undefined; use: EntityUse } | undefined;

// Names other than XML's five: the DOCTYPE's entities, then HTML's named entities. A lookup of an HTML
// entity is recorded (it makes the document not well-formed) but still resolves, so one `&nbsp;` does
// not cost the whole strict tree.
const OTHER_ENTITIES = new Proxy(Object.create(null) as Record<string, string>, {
  get(_target, key): string | undefined {
    if (typeof key !== 'string' || current === undefined) return undefined;
    const { declared, use } = current;
    const value = isName(key) ? lookupEntity(key, declared) : undefined;
    if (value === undefined) {
      // a bare `&` before markup makes saxes read up to the next `;` as one name: list only its Name
      noteName(use.unknownNames, namePrefix(key));
      return undefined;
    }
    if (!declared?.has(key)) noteName(use.undefinedNames, key);
    use.expandedChars += value.length;
    if (use.expandedChars > MAX_EXPANDED_CHARS) {
      use.overflowed = true;
      return '';
    }
    return value;
  },
});

// An XML Name (XML 1.0 section 2.3), approximated above U+00BF: what an entity reference may be called.
const NAME_RE = /^[A-Za-z_:\u00C0-\uFFFF][A-Za-z_:\u00C0-\uFFFF0-9.\-\u00B7]*/;

function isName(key: string): boolean {
  return NAME_RE.exec(key)?.[0].length === key.length;
}

/** The longest XML Name a string starts with, or the first character when it starts with none. */
function namePrefix(key: string): string {
  return NAME_RE.exec(key)?.[0] ?? key.slice(0, 1);
}

// Names are listed once each, and a document that uses thousands of different ones lists the first few.
const MAX_NAMES = 100;

function noteName(names: string[], name: string): void {
  if (names.length < MAX_NAMES && !names.includes(name)) names.push(name);
}

// saxes looks up every reference in its ENTITIES table: XML's five (every `&lt;` of escaped HTML) are
// this object's own properties, read as such; other names fall through to the proxy behind it. With the
// proxy in front, its trap was a tenth of the time spent on a document of escaped HTML (yakubin.atom in
// the perf corpus, which now parses some 3% faster). One object for all documents: making an object
// the prototype of another costs V8 some work, which a table per document would pay each time.
const ENTITY_TABLE: Record<string, string> = Object.freeze(
  Object.assign(Object.create(OTHER_ENTITIES) as Record<string, string>, XML_ENTITIES),
);

/**
 * Runs `read` with the ENTITIES table for saxes answering for one document: XML's five, then the
 * DOCTYPE's entities, then HTML's named entities, recording in `use` the entities XML does not define.
 */
export function withEntityTable<T>(
  declared: Map<string, string> | undefined,
  use: EntityUse,
  read: (table: Record<string, string>) => T,
): T {
  const outer = current;
  current = { declared, use };
  try {
    return read(ENTITY_TABLE);
  } finally {
    current = outer;
  }
}

const ENTITY_RE = /&(#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);/g;

/** What entity references have added to one document so far, against MAX_EXPANDED_CHARS. */
export interface ExpansionBudget {
  expandedChars: number;
  overflowed: boolean;
}

/**
 * Decodes character and entity references in text read by the tolerant pass; unknown ones stay as
 * written. Like the strict pass, the references other than XML's five may add MAX_EXPANDED_CHARS
 * characters to the document (`budget`, one per document); past that they decode to nothing. Without
 * it, a broken document of 3 MB, a million references to a DTD entity of 10,000 characters, made a
 * string too long for V8 and parseFeed threw (issue 12).
 */
export function decodeReferences(
  text: string,
  declared: Map<string, string> | undefined,
  budget: ExpansionBudget = { expandedChars: 0, overflowed: false },
): string {
  if (!text.includes('&')) return text;
  // A loop that collects the pieces: String#replace with a function slowed down more than linearly on
  // a text of 256,000 references (issue 12), 450 ms where this takes 150
  const references = new RegExp(ENTITY_RE);
  const pieces: string[] = [];
  let last = 0;
  for (let m = references.exec(text); m !== null; m = references.exec(text)) {
    const name = m[1] as string;
    let value = referenceValue(name, declared);
    if (value === undefined) continue;
    if (name.charCodeAt(0) !== 35 /* # */ && XML_ENTITIES[name] === undefined) {
      budget.expandedChars += value.length;
      if (budget.expandedChars > MAX_EXPANDED_CHARS) {
        budget.overflowed = true;
        value = '';
      }
    }
    if (m.index > last) pieces.push(text.slice(last, m.index));
    pieces.push(value);
    last = references.lastIndex;
  }
  if (last === 0) return text;
  pieces.push(text.slice(last));
  return pieces.join('');
}

// The text of a reference (`#38`, `#x26`, `amp`), undefined when it stays as written
function referenceValue(name: string, declared: Map<string, string> | undefined): string | undefined {
  if (name.charCodeAt(0) !== 35 /* # */) return lookupEntity(name, declared);
  const code =
    name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
  return isXmlChar(code) ? String.fromCodePoint(code) : undefined;
}

function isXmlChar(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  );
}
