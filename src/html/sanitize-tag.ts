// Start tags: which elements and attributes survive, how URLs in them are resolved and checked, and how
// the tag is written. Attributes are written sorted by name, duplicates collapsed to the last value, as
// the Universal Feed Parser does (atom10/tag_in_attr.xml, namespace/rss2.0svg.xml).

import {
  ACCEPTABLE_ATTRIBUTES,
  ACCEPTABLE_ELEMENTS,
  DROPPED_WITH_CONTENT_ELEMENTS,
  HIDDEN_CONTENT_ELEMENTS,
  RELATIVE_URL_ATTRIBUTES,
  URL_ATTRIBUTES,
  VOID_ELEMENTS,
} from './sanitize-allowlist.js';
import { sanitizeStyle } from './sanitize-css.js';
import {
  MATHML_ATTRIBUTES,
  MATHML_ELEMENTS,
  MATHML_NAMESPACE,
  SVG_ATTRIBUTES,
  SVG_ELEMENTS,
  SVG_NAMESPACE,
  XLINK_NAMESPACE,
} from './sanitize-foreign.js';
import { escapeAttributeValue, escapeDecodedAttributeValue } from './sanitize-text.js';
import { hasScriptScheme, sanitizeUrl } from './sanitize-url.js';

/**
 * The start tag being read: where it was written, input[start, end), and its attributes, kept in arrays
 * reused from tag to tag (an array per attribute was a sixth of the sanitizer's allocations). For each
 * attribute: the lower-cased name, the raw value (references not decoded), and where ` name="value"`
 * was written just so, or -1 when it was written otherwise (other quotes, upper case, no value) or
 * added here.
 */
export class StartTag {
  constructor(readonly input: string) {}

  start = 0;
  end = 0;
  readonly names: string[] = [];
  readonly values: string[] = [];
  readonly starts: number[] = [];
  readonly ends: number[] = [];
  length = 0;
  /** order[0, kept): the attributes written out, in order; outValues: their values as written out. */
  readonly order: number[] = [];
  readonly outValues: (string | undefined)[] = [];
  kept = 0;

  add(name: string, value: string, start: number, end: number): void {
    const i = this.length++;
    this.names[i] = name;
    this.values[i] = value;
    this.starts[i] = start;
    this.ends[i] = end;
  }

  indexOf(name: string): number {
    for (let i = 0; i < this.length; i++) if (this.names[i] === name) return i;
    return -1;
  }
}

/** The counters a start tag changes: text hidden inside script/style/applet, and SVG or MathML open. */
export interface TagContext {
  baseUrl: string | undefined;
  hiddenDepth: number;
  svgDepth: number;
  mathDepth: number;
}

/** A start tag that survives sanitizing. */
export interface SanitizedTag {
  /** The element name as written (SVG names camelCase). */
  readonly name: string;
  /** The whole start tag, `<br />` form for void elements; undefined when it is the source as written. */
  readonly markup: string | undefined;
}

/** Which allowlist an element's attributes are checked against. */
enum Vocabulary {
  Html,
  Svg,
  MathMl,
}

// Most tags are an HTML element without attributes (`<p>`, `<li>`): their results are made once.
const BARE_TAGS: ReadonlyMap<string, SanitizedTag> = new Map(
  [...ACCEPTABLE_ELEMENTS].map((name) => [
    name,
    Object.freeze({ name, markup: VOID_ELEMENTS.has(name) ? `<${name} />` : `<${name}>` }),
  ]),
);

/** What sanitizeStartTag returns for an element dropped together with its content. */
export const DROP_WITH_CONTENT: unique symbol = Symbol('drop with content');

/**
 * Returns the sanitized start tag; undefined when the element is dropped but its content is kept;
 * DROP_WITH_CONTENT when everything up to its end tag goes too.
 */
export function sanitizeStartTag(
  ctx: TagContext,
  name: string,
  attrs: StartTag,
): SanitizedTag | typeof DROP_WITH_CONTENT | undefined {
  const isForeign = ctx.svgDepth > 0 || ctx.mathDepth > 0;
  if (attrs.length === 0 && !isForeign) {
    const bare = BARE_TAGS.get(name);
    if (bare !== undefined) return bare;
  }
  let vocabulary = Vocabulary.Html;
  let outName = name;
  if (isForeign) {
    // Inside SVG only SVG elements, inside MathML only MathML ones: an element of another vocabulary
    // would be in the foreign namespace to a browser, and that confusion is where mutation XSS starts.
    const svgName = ctx.svgDepth > 0 ? SVG_ELEMENTS.get(name) : undefined;
    if (svgName !== undefined) {
      vocabulary = Vocabulary.Svg;
      outName = svgName;
      if (name === 'svg') ctx.svgDepth++;
    } else if (ctx.svgDepth === 0 && MATHML_ELEMENTS.has(name)) {
      vocabulary = Vocabulary.MathMl;
      if (name === 'math') ctx.mathDepth++;
    } else {
      return DROP_WITH_CONTENT;
    }
    declareXlink(attrs);
  } else if (name === 'svg' || name === 'math') {
    if (!enterForeignRoot(ctx, name, attrs)) return undefined;
    vocabulary = name === 'svg' ? Vocabulary.Svg : Vocabulary.MathMl;
    declareXlink(attrs);
  } else if (!ACCEPTABLE_ELEMENTS.has(name)) {
    if (DROPPED_WITH_CONTENT_ELEMENTS.has(name)) return DROP_WITH_CONTENT;
    if (HIDDEN_CONTENT_ELEMENTS.has(name)) ctx.hiddenDepth++;
    return undefined;
  }
  sortAttributes(attrs);
  return { name: outName, markup: writeTag(ctx, name, outName, vocabulary, attrs) };
}

/**
 * The start tag as written out, or undefined when that is exactly its source: each attribute kept,
 * in order, unchanged and written ` name="value"` (then nothing is built; bench:parse, memory).
 */
function writeTag(
  ctx: TagContext,
  name: string,
  outName: string,
  vocabulary: Vocabulary,
  attrs: StartTag,
): string | undefined {
  const { input, start, end } = attrs;
  let cursor = input.startsWith(outName, start + 1) ? start + 1 + outName.length : -1;
  for (let n = 0; n < attrs.kept; n++) {
    const i = attrs.order[n] as number;
    const key = attrs.names[i] as string;
    const outKey = allowedName(vocabulary, key);
    const value = outKey === undefined ? undefined : sanitizeValue(ctx, name, key, attrs.values[i] as string);
    attrs.outValues[n] = value;
    const isSame = cursor !== -1 && attrs.starts[i] === cursor && outKey === key && value === attrs.values[i];
    cursor = isSame ? (attrs.ends[i] as number) : -1;
  }
  const close = VOID_ELEMENTS.has(name) ? ' />' : '>';
  if (cursor !== -1 && cursor + close.length === end && input.startsWith(close, cursor)) return undefined;
  let markup = `<${outName}`;
  for (let n = 0; n < attrs.kept; n++) {
    const value = attrs.outValues[n];
    const key = attrs.names[attrs.order[n] as number] as string;
    if (value !== undefined) markup += ` ${allowedName(vocabulary, key)}="${value}"`;
  }
  return markup + close;
}

/** The attribute's name as written when the vocabulary allows it. */
function allowedName(vocabulary: Vocabulary, attribute: string): string | undefined {
  if (vocabulary === Vocabulary.Html) return ACCEPTABLE_ATTRIBUTES.has(attribute) ? attribute : undefined;
  if (vocabulary === Vocabulary.Svg) return SVG_ATTRIBUTES.get(attribute);
  return MATHML_ATTRIBUTES.has(attribute) ? attribute : undefined;
}

// `<svg>` and `<math>` in HTML get their namespace when they lack one, and only with it do they open
// SVG or MathML (namespace/rss2.0svg5.xml has no xmlns). Returns whether it opened.
function enterForeignRoot(ctx: TagContext, name: string, attrs: StartTag): boolean {
  const namespace = name === 'svg' ? SVG_NAMESPACE : MATHML_NAMESPACE;
  const xmlns = attrs.indexOf('xmlns');
  if (xmlns === -1 || attrs.values[xmlns] === '') attrs.add('xmlns', namespace, -1, -1);
  if (!hasAttribute(attrs, 'xmlns', namespace)) return false;
  if (name === 'svg') ctx.svgDepth++;
  else ctx.mathDepth++;
  return true;
}

function hasAttribute(attrs: StartTag, name: string, value: string): boolean {
  for (let i = 0; i < attrs.length; i++)
    if (attrs.names[i] === name && attrs.values[i] === value) return true;
  return false;
}

// xlink: attributes need their namespace declared (namespace/rss2.0xlink.xml, atommathml.xml).
function declareXlink(attrs: StartTag): void {
  let hasXlink = false;
  for (let i = 0; i < attrs.length; i++) if ((attrs.names[i] as string).startsWith('xlink:')) hasXlink = true;
  if (!hasXlink || hasAttribute(attrs, 'xmlns:xlink', XLINK_NAMESPACE)) return;
  attrs.add('xmlns:xlink', XLINK_NAMESPACE, -1, -1);
}

// Tags have few attributes: insertion sort is fastest for them; past this many it is quadratic (one tag
// with 40,000 attributes took 5 s, issue 12) and Array sort, stable too, takes over.
const INSERTION_SORT_MAX = 32;

/**
 * Puts into attrs.order the attributes to write: sorted by name, duplicates collapsed to the last value
 * (rel and type values lower-cased).
 */
function sortAttributes(attrs: StartTag): void {
  const { names, order } = attrs;
  if (attrs.length > INSERTION_SORT_MAX) {
    const sorted = Array.from({ length: attrs.length }, (_, i) => i);
    sorted.sort((a, b) => compareNames(names[a] as string, names[b] as string));
    for (let i = 0; i < sorted.length; i++) order[i] = sorted[i] as number;
  } else {
    // stable, so the last of equal names ends last
    for (let i = 0; i < attrs.length; i++) {
      const name = names[i] as string;
      let j = i;
      while (j > 0 && (names[order[j - 1] as number] as string) > name) {
        order[j] = order[j - 1] as number;
        j--;
      }
      order[j] = i;
    }
  }
  attrs.kept = 0;
  for (let n = 0; n < attrs.length; n++) {
    const i = order[n] as number;
    if (n + 1 < attrs.length && names[order[n + 1] as number] === names[i]) continue;
    if (names[i] === 'rel' || names[i] === 'type') lowerCaseValue(attrs, i);
    order[attrs.kept++] = i;
  }
}

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function lowerCaseValue(attrs: StartTag, i: number): void {
  const value = attrs.values[i] as string;
  const lower = value.toLowerCase();
  if (lower === value) return;
  attrs.values[i] = lower;
  attrs.starts[i] = -1; // no longer as written
}

/** An allowed attribute's value as written out (escaped), or undefined when it leaves nothing to keep. */
function sanitizeValue(ctx: TagContext, element: string, key: string, value: string): string | undefined {
  if (key === 'style') {
    // Only HTML elements allow style (the SVG and MathML lists have no style attribute).
    const style = sanitizeStyle(value, ctx.svgDepth > 0);
    return style === '' ? undefined : escapeDecodedAttributeValue(style);
  }
  // DOM clobbering: `<img name="querySelector">` makes document.querySelector that image, which breaks
  // the page's own script (named access on document; img is the one such element kept).
  if (key === 'name' && element === 'img') return undefined;
  const resolvable = RELATIVE_URL_ATTRIBUTES.get(element)?.has(key) === true;
  if (resolvable || URL_ATTRIBUTES.has(key)) {
    return escapeDecodedAttributeValue(sanitizeUrl(ctx, element, key, value, resolvable));
  }
  // Any other attribute whose value reads as a script URL goes, whatever its name: the name lists
  // of URL attributes are never complete (SVG values, MathML altimg, IE's datasrc).
  if (hasScriptScheme(value)) return undefined;
  return escapeAttributeValue(value);
}
