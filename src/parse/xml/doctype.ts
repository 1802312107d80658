import type { Diagnostic } from '../../model/index.js';
import { XML_ENTITIES } from './entities.js';

/** What a DOCTYPE tells the parser: internal entities (expanded, bounded) and the public identifier. */
export interface Doctype {
  text: string;
  publicId: string;
  entities: Map<string, string>;
  diagnostics: Omit<Diagnostic, 'line' | 'column'>[];
  /** String index of `<!DOCTYPE` in the document. */
  offset: number;
}

// Billion-laughs guard: an entity may expand to at most this many characters, and nesting is bounded.
const MAX_ENTITY_CHARS = 10_000;
const MAX_ENTITY_DEPTH = 8;
const MAX_ENTITIES = 1_000;

const DOCTYPE_RE = /<!DOCTYPE\s+[^[>]*(?:\[[\s\S]*?\]\s*)?>/i;
const PUBLIC_RE = /PUBLIC\s+(["'])(.*?)\1/i;
const ENTITY_RE = /<!ENTITY\s+(%\s+)?([^\s"'>]+)\s+(?:(SYSTEM|PUBLIC)\b[^>]*|(["'])([\s\S]*?)\4)\s*>/gi;
const REF_RE = /&([^\s&;]+);/g;

/**
 * Reads the DOCTYPE at the head of a document, if any. Internal entities are expanded with limits;
 * external entities are refused (no DTD or entity is ever fetched: XXE).
 */
export function readDoctype(text: string): Doctype | undefined {
  const start = text.indexOf('<!');
  if (start < 0 || start > 4096) return undefined;
  const head = text.slice(0, Math.min(text.length, 1 << 20));
  const match = DOCTYPE_RE.exec(head);
  if (!match) return undefined;
  const doctype: Doctype = {
    text: match[0],
    publicId: PUBLIC_RE.exec(match[0])?.[2] ?? '',
    entities: new Map(),
    diagnostics: [],
    offset: match.index,
  };
  const raw = new Map<string, string>();
  // parameter entity name -> its value, undefined for an external one
  const parameters = new Map<string, string | undefined>();
  for (const m of match[0].matchAll(ENTITY_RE)) {
    const name = m[2] as string;
    if (m[1]) {
      if (!parameters.has(name)) parameters.set(name, m[3] ? undefined : (m[5] ?? ''));
      continue;
    }
    if (m[3]) {
      doctype.diagnostics.push({
        severity: 'error',
        code: 'xml.external-entity',
        message: `xml: external entity "${name}" refused (entities are never fetched)`,
      });
      raw.set(name, '');
    } else if (!raw.has(name) && raw.size < MAX_ENTITIES) {
      raw.set(name, m[5] ?? '');
    }
  }
  reportParameterEntities(doctype, parameters);
  const expanded = new Map<string, Expansion | undefined>();
  for (const name of raw.keys()) {
    const value = expand(name, raw, expanded)?.value;
    if (value === undefined) {
      doctype.diagnostics.push({
        severity: 'error',
        code: 'xml.entity-expansion',
        message: `xml: entity "${name}" expands beyond ${MAX_ENTITY_CHARS} characters or nests too deeply; ignored`,
      });
    }
    doctype.entities.set(name, value === undefined ? '' : replacementText(value));
  }
  return doctype;
}

const CHARACTER_REF_RE = /&(?:#x([0-9a-fA-F]{1,6})|#(\d{1,7})|(amp|lt|gt|quot|apos));/g;

/**
 * An entity's value as the text it stands for: character references in an entity value are expanded when
 * it is declared (XML 1.0 4.5), and what they and the predefined entities give is read as text when the
 * entity is used (`<!ENTITY nbsp "&#160;">` is a no-break space, not the six characters "&#160;"). A
 * reference to no character (0, a surrogate, past U+10FFFF) becomes U+FFFD.
 */
function replacementText(value: string): string {
  if (!value.includes('&')) return value;
  return value.replace(CHARACTER_REF_RE, (_, hex: string | undefined, dec: string | undefined, named) => {
    if (named !== undefined) return XML_ENTITIES[named as string] as string;
    const code = hex !== undefined ? Number.parseInt(hex, 16) : Number(dec);
    const valid = code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff);
    return valid ? String.fromCodePoint(code) : '\ufffd';
  });
}

// A reference to a parameter entity in the DTD (`%name;`): what it would declare is not read.
const PARAMETER_REF_RE = /%([A-Za-z_:][\w.:-]*);/g;

/**
 * Parameter entities are not expanded (they could declare entities, even fetch a DTD), and are reported.
 * One that the DTD uses and that declares something (an internal one whose text holds `<!`) is an error:
 * the document then means what we do not read. An external one is most often an XHTML entity set
 * (`%HTMLlat1;`), whose names are read as HTML entities anyway (feedparser: doctype_contains_entity_decl).
 */
function reportParameterEntities(doctype: Doctype, declared: Map<string, string | undefined>): void {
  if (declared.size === 0 && !doctype.text.includes('%')) return;
  const used = [...new Set(Array.from(doctype.text.matchAll(PARAMETER_REF_RE), (m) => m[1] as string))];
  const declaring = used.filter((name) => declared.get(name)?.includes('<!'));
  if (declaring.length > 0) {
    doctype.diagnostics.push({
      severity: 'error',
      code: 'xml.parameter-entity-used',
      message: `xml: the DTD declares through parameter entities (${list(declaring)}), which are not read`,
    });
  } else if (used.length > 0 || declared.size > 0) {
    const names = used.length > 0 ? used : [...declared.keys()];
    doctype.diagnostics.push({
      severity: 'warning',
      code: 'xml.parameter-entity',
      message: `xml: the DTD ${used.length > 0 ? 'uses' : 'declares'} parameter entities (${list(names)}), which are ignored`,
    });
  }
}

function list(names: string[]): string {
  const shown = names.slice(0, 10).map((n) => `%${n};`);
  return names.length > shown.length
    ? `${shown.join(' ')} and ${names.length - shown.length} more`
    : shown.join(' ');
}

/** An entity's replacement text, and how deeply entities nest in it (0: it references none). */
interface Expansion {
  value: string;
  depth: number;
}

/**
 * An entity's replacement text, or undefined when it is too long, nests too deeply or refers to
 * itself. Each entity is expanded once (`expanded`): without that, a DTD of 600 bytes whose entities
 * each name the one before twenty times made 20^5 expansions, 6 s (issue 12, billion laughs of
 * empty strings); the length is checked as the text grows, so no entity builds more than the limit.
 */
function expand(
  name: string,
  raw: Map<string, string>,
  expanded: Map<string, Expansion | undefined>,
): Expansion | undefined {
  if (expanded.has(name)) return expanded.get(name);
  const value = raw.get(name) as string;
  expanded.set(name, undefined); // while it is expanded: a reference back to it fails
  let result: Expansion | undefined;
  if (!value.includes('&')) {
    result = value.length <= MAX_ENTITY_CHARS ? { value, depth: 0 } : undefined;
  } else {
    const pieces: string[] = [];
    let length = 0;
    let depth = 0;
    let last = 0;
    let failed = false;
    for (const m of value.matchAll(REF_RE)) {
      const inner = m[1] as string;
      if (inner.startsWith('#') || !raw.has(inner)) continue;
      const sub = expand(inner, raw, expanded);
      const before = m.index - last;
      if (
        sub === undefined ||
        sub.depth + 1 > MAX_ENTITY_DEPTH ||
        length + before + sub.value.length > MAX_ENTITY_CHARS
      ) {
        failed = true;
        break;
      }
      pieces.push(value.slice(last, m.index), sub.value);
      length += before + sub.value.length;
      depth = Math.max(depth, sub.depth + 1);
      last = m.index + m[0].length;
    }
    pieces.push(value.slice(last));
    length += value.length - last;
    result = failed || length > MAX_ENTITY_CHARS ? undefined : { value: pieces.join(''), depth };
  }
  expanded.set(name, result);
  return result;
}
