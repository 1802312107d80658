import { decodeHTMLStrict } from 'entities/decode';

// Tables without a prototype: `&toString;` and `&constructor;` found Object.prototype's functions in
// plain objects and put their source text into the feed.
const XML_ENTITIES = table({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" });

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
  expandedChars: number;
  overflowed: boolean;
}

/**
 * An ENTITIES table for saxes: XML's five, then the DOCTYPE's entities, then HTML's named entities.
 * A lookup of an HTML entity is recorded (it makes the document not well-formed) but still resolves,
 * so one `&nbsp;` does not cost the whole strict tree.
 */
export function makeEntityTable(declared: Map<string, string> | undefined, use: EntityUse): object {
  return new Proxy(Object.create(null) as Record<string, string>, {
    get(_target, key): string | undefined {
      if (typeof key !== 'string') return undefined;
      const xml = XML_ENTITIES[key];
      if (xml !== undefined) return xml;
      const value = lookupEntity(key, declared);
      if (value === undefined) return undefined;
      if (!declared?.has(key)) use.undefinedNames.push(key);
      use.expandedChars += value.length;
      if (use.expandedChars > MAX_EXPANDED_CHARS) {
        use.overflowed = true;
        return '';
      }
      return value;
    },
  });
}

const ENTITY_RE = /&(#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);/g;

/** Decodes character and entity references in text read by the tolerant pass; unknown ones stay as written. */
export function decodeReferences(text: string, declared: Map<string, string> | undefined): string {
  if (!text.includes('&')) return text;
  return text.replace(ENTITY_RE, (ref, name: string) => {
    if (name.charCodeAt(0) === 35 /* # */) {
      const code =
        name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return isXmlChar(code) ? String.fromCodePoint(code) : ref;
    }
    return lookupEntity(name, declared) ?? ref;
  });
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
