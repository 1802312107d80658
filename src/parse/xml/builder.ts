import { keepShape } from '../../html/index.js';
import type { NamespaceScope, XmlDocument, XmlElement, XmlNode } from './tree.js';

const XML_NS = 'http://www.w3.org/XML/1998/namespace';
const ROOT_SCOPE: NamespaceScope = Object.freeze({ xml: XML_NS });
// Most elements have no attributes: they share one empty record rather than each keeping its own.
const NO_ATTRIBUTES: Record<string, string> = Object.freeze({});

/**
 * Attributes one element keeps; the rest are dropped with a diagnostic. One element with 64,000
 * attributes made saxes and htmlparser2 spend 170-280 ns per character, and the tree walked them all
 * again (issue 12).
 */
export const MAX_ATTRIBUTES = 1024;

/** Limits that bound the work spent on a hostile document. */
export interface TreeLimits {
  maxDepth: number;
  /** Items and entries of the feed past this many are skipped (counted in doc.skippedEntries). */
  maxEntries?: number;
  /** Added to every offset: where the parsed text starts in the whole document. */
  offsetBase?: number;
}

/** The root element of an RSS, Atom or RSS 1.0 feed, by its name as written. */
const FEED_ROOT = /^(?:rss|feed|rdf:RDF|[A-Za-z_][\w.-]*:(?:rss|feed|RDF))$/;

/**
 * Builds an XmlDocument from parser events; the strict and the tolerant pass share it, so both
 * produce the same tree for the same well-formed document.
 */
export class TreeBuilder {
  readonly doc: XmlDocument = { root: undefined, declared: {} };
  private readonly stack: XmlElement[] = [];
  private skippedDepth = 0;
  /** Prefixes used without a declaration (a namespace well-formedness error). */
  readonly unboundPrefixes: { prefix: string; offset: number }[] = [];
  tooDeepAt: number | undefined;

  private readonly offsetBase: number;
  private readonly maxEntries: number;
  private entries = 0;

  constructor(private readonly limits: TreeLimits) {
    this.offsetBase = limits.offsetBase ?? 0;
    this.maxEntries = limits.maxEntries ?? Number.POSITIVE_INFINITY;
  }

  get depth(): number {
    return this.stack.length;
  }

  /** The open elements, outermost first. */
  get openElements(): readonly XmlElement[] {
    return this.stack;
  }

  open(name: string, attrs: Record<string, string>, textOffset: number): void {
    const offset = textOffset + this.offsetBase;
    if (this.skippedDepth > 0 || this.stack.length >= this.limits.maxDepth) {
      if (this.skippedDepth === 0) this.tooDeepAt = offset;
      this.skippedDepth++;
      return;
    }
    if (this.stack.length <= 2 && isEntryName(name) && ++this.entries > this.maxEntries) {
      // past the limit, an item is skipped as it is read: a document of 650,000 items peaked at 600 MB
      this.doc.skippedEntries = (this.doc.skippedEntries ?? 0) + 1;
      this.doc.skippedFrom ??= offset;
      this.skippedDepth++;
      return;
    }
    const parent = this.stack[this.stack.length - 1];
    const scope = this.scopeFor(attrs, parent ? parent.scope : ROOT_SCOPE);
    const colon = name.indexOf(':');
    const prefix = colon > 0 ? name.slice(0, colon) : '';
    const local = colon > 0 ? name.slice(colon + 1) : name;
    let ns = Object.hasOwn(scope, prefix) ? (scope[prefix] as string) : '';
    if (ns === '' && prefix !== '') {
      this.unboundPrefixes.push({ prefix, offset });
      ns = `urn:unbound:${prefix}`;
    }
    const el: XmlElement = {
      name,
      local,
      ns,
      attrs: hasKeys(attrs) ? attrs : NO_ATTRIBUTES,
      children: [],
      parent,
      offset,
      scope,
    };
    if (parent) addChild(parent, el);
    else if (!this.doc.root) this.doc.root = el;
    else if (FEED_ROOT.test(name) && !FEED_ROOT.test(this.doc.root.name)) {
      // a feed after other markup at the top (a PHP warning's <br /><b>Warning</b> before the feed): the
      // feed is the document; what came before is noted (the strict pass has reported the second root)
      this.doc.before ??= { name: this.doc.root.name, offset: this.doc.root.offset };
      this.doc.root = el;
    } else return; // a second root: ignored (the strict pass has reported it)
    this.stack.push(el);
  }

  close(): void {
    if (this.skippedDepth > 0) {
      this.skippedDepth--;
      return;
    }
    this.stack.pop();
  }

  text(text: string, cdata: boolean): void {
    if (this.skippedDepth > 0) return;
    const top = this.stack[this.stack.length - 1];
    if (!top) return; // text outside the root element carries nothing
    const { children } = top;
    const last = children[children.length - 1] as XmlNode | undefined;
    if (last && !('local' in last) && !last.cdata && !cdata) last.text += text;
    else {
      // saxes builds text with one `+=` per reference: escaped HTML arrives as a rope of thousands of
      // pieces (V8 cons strings), several times the size of its characters, that would live as long as
      // the tree. Reading a character flattens it into one string now (bench:parse: 2 MB less peak RSS).
      text.charCodeAt(0);
      addChild(top, cdata ? { text, cdata } : { text });
    }
  }

  private scopeFor(attrs: Record<string, string>, inherited: NamespaceScope): NamespaceScope {
    let scope = inherited;
    for (const key in attrs) {
      if (key.charCodeAt(0) !== 120 /* x */ || !key.startsWith('xmlns')) continue;
      if (key.length > 5 && key.charCodeAt(5) !== 58 /* : */) continue;
      const prefix = key.length === 5 ? '' : key.slice(6);
      const uri = (attrs[key] ?? '').trim();
      if (scope === inherited) scope = { ...inherited };
      // prefixes such as `__proto__` and `constructor` are names like any other: own properties only
      setOwn(scope as Record<string, string>, prefix, uri);
      if (!Object.hasOwn(this.doc.declared, prefix)) setOwn(this.doc.declared, prefix, uri);
    }
    return scope;
  }
}

/** Sets a record's own property, even one named `__proto__` (a plain assignment would set the prototype). */
export function setOwn(record: Record<string, string>, key: string, value: string): void {
  Object.defineProperty(record, key, { value, writable: true, enumerable: true, configurable: true });
}

// RSS's items (rss/channel/item, rdf:RDF/item) and Atom's entries (feed/entry), by their local name
function isEntryName(name: string): boolean {
  const local = name.slice(name.indexOf(':') + 1);
  return local.length <= 5 && /^(?:item|entry)$/i.test(local);
}

function hasKeys(record: Record<string, string>): boolean {
  for (const _ in record) return true;
  return false;
}

// Most elements have one child (their text): `[child]` holds one slot, where a push onto `[]` reserves
// seventeen (bench:parse, peak memory).
function addChild(parent: XmlElement, child: XmlNode): void {
  if (parent.children.length === 0) parent.children = [child];
  else parent.children.push(child);
}

keepShape(new TreeBuilder({ maxDepth: 0 }));
