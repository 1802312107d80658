// Start tags: which elements and attributes survive, how URLs in them are resolved and checked, and how
// the tag is written. Attributes are written sorted by name, duplicates collapsed to the last value, as
// the Universal Feed Parser does (atom10/tag_in_attr.xml, namespace/rss2.0svg.xml).

import {
  ACCEPTABLE_ATTRIBUTES,
  ACCEPTABLE_ELEMENTS,
  HIDDEN_CONTENT_ELEMENTS,
  RELATIVE_URL_ATTRIBUTES,
  URL_ATTRIBUTES,
  VOID_ELEMENTS,
} from './sanitize-allowlist.js';
import { sanitizeStyle } from './sanitize-css.js';
import {
  ANIMATION_ELEMENTS,
  MATHML_ATTRIBUTES,
  MATHML_ELEMENTS,
  MATHML_NAMESPACE,
  SVG_ATTRIBUTES,
  SVG_ELEMENTS,
  SVG_NAMESPACE,
  XLINK_NAMESPACE,
} from './sanitize-foreign.js';
import { decodeAttributeValue, escapeAttributeValue, escapeDecodedAttributeValue } from './sanitize-text.js';
import { hasSafeScheme, isSafeUrl, resolveUrl } from './urls.js';

/** An attribute as read: lower-cased name and raw value (references not decoded). */
export type Attribute = [name: string, value: string];

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
  name: string;
  /** The whole start tag, `<br />` form for void elements. */
  markup: string;
}

/** Which allowlist an element's attributes are checked against. */
enum Vocabulary {
  Html,
  Svg,
  MathMl,
}

/** Returns the sanitized start tag, or undefined when the element is dropped (its text may still be kept). */
export function sanitizeStartTag(
  ctx: TagContext,
  name: string,
  attrs: Attribute[],
): SanitizedTag | undefined {
  let vocabulary = Vocabulary.Html;
  let outName = name;
  if (!ACCEPTABLE_ELEMENTS.has(name) || ctx.svgDepth > 0) {
    if (HIDDEN_CONTENT_ELEMENTS.has(name)) ctx.hiddenDepth++;
    enterForeignRoot(ctx, name, attrs);
    const svgName = ctx.svgDepth > 0 ? SVG_ELEMENTS.get(name) : undefined;
    if (ctx.mathDepth > 0 && MATHML_ELEMENTS.has(name)) {
      vocabulary = Vocabulary.MathMl;
    } else if (svgName !== undefined) {
      vocabulary = Vocabulary.Svg;
      outName = svgName;
    } else if (!ACCEPTABLE_ELEMENTS.has(name)) {
      return undefined;
    }
  }
  if (ctx.svgDepth > 0 || ctx.mathDepth > 0) declareXlink(attrs);
  let markup = `<${outName}`;
  if (attrs.length > 0) {
    normalizeAttributes(attrs);
    for (let i = 0; i < attrs.length; i++) {
      const [key, value] = attrs[i]!;
      const outKey = allowedName(vocabulary, key);
      if (outKey !== undefined) markup += sanitizeAttribute(ctx, name, outKey, key, value);
    }
  }
  markup += VOID_ELEMENTS.has(name) ? ' />' : '>';
  return { name: outName, markup };
}

/** The attribute's name as written when the vocabulary allows it. */
function allowedName(vocabulary: Vocabulary, attribute: string): string | undefined {
  if (vocabulary === Vocabulary.Html) return ACCEPTABLE_ATTRIBUTES.has(attribute) ? attribute : undefined;
  if (vocabulary === Vocabulary.Svg) return SVG_ATTRIBUTES.get(attribute);
  return MATHML_ATTRIBUTES.has(attribute) ? attribute : undefined;
}

// `<svg>` and `<math>` in HTML get their namespace when they lack one, and only with it do they open
// SVG or MathML (namespace/rss2.0svg5.xml has no xmlns).
function enterForeignRoot(ctx: TagContext, name: string, attrs: Attribute[]): void {
  const namespace = name === 'svg' ? SVG_NAMESPACE : name === 'math' ? MATHML_NAMESPACE : undefined;
  if (namespace === undefined) return;
  const xmlns = attrs.find(([key]) => key === 'xmlns');
  if (xmlns === undefined || xmlns[1] === '') attrs.push(['xmlns', namespace]);
  if (!attrs.some(([key, value]) => key === 'xmlns' && value === namespace)) return;
  if (name === 'svg') ctx.svgDepth++;
  else ctx.mathDepth++;
}

// xlink: attributes need their namespace declared (namespace/rss2.0xlink.xml, atommathml.xml).
function declareXlink(attrs: Attribute[]): void {
  if (!attrs.some(([key]) => key.startsWith('xlink:'))) return;
  if (attrs.some(([key, value]) => key === 'xmlns:xlink' && value === XLINK_NAMESPACE)) return;
  attrs.push(['xmlns:xlink', XLINK_NAMESPACE]);
}

/** Collapses duplicate names (the last value wins), lower-cases rel and type values, sorts by name. */
function normalizeAttributes(attrs: Attribute[]): Attribute[] {
  // Insertion sort: tags have few attributes, and it is stable, so the last of equal names ends last.
  for (let i = 1; i < attrs.length; i++) {
    const current = attrs[i]!;
    let j = i - 1;
    while (j >= 0 && attrs[j]![0] > current[0]) {
      attrs[j + 1] = attrs[j]!;
      j--;
    }
    attrs[j + 1] = current;
  }
  let kept = 0;
  for (let i = 0; i < attrs.length; i++) {
    const attr = attrs[i]!;
    if (i + 1 < attrs.length && attrs[i + 1]![0] === attr[0]) continue;
    if (attr[0] === 'rel' || attr[0] === 'type') attr[1] = attr[1].toLowerCase();
    attrs[kept++] = attr;
  }
  attrs.length = kept;
  return attrs;
}

/** The allowed attribute as written (` name="value"`), or '' when its value leaves nothing to keep. */
function sanitizeAttribute(
  ctx: TagContext,
  element: string,
  outKey: string,
  key: string,
  value: string,
): string {
  if (key === 'style') {
    // Only HTML elements allow style (the SVG and MathML lists have no style attribute).
    const style = sanitizeStyle(value, ctx.svgDepth > 0);
    return style === '' ? '' : ` style="${escapeDecodedAttributeValue(style)}"`;
  }
  if (key === 'attributename' && ANIMATION_ELEMENTS.has(element) && /href/i.test(value)) return '';
  const resolvable = RELATIVE_URL_ATTRIBUTES.get(element)?.has(key) === true;
  if (resolvable || URL_ATTRIBUTES.has(key)) {
    return ` ${outKey}="${escapeDecodedAttributeValue(sanitizeUrl(ctx, key, value, resolvable))}"`;
  }
  return ` ${outKey}="${escapeAttributeValue(value)}"`;
}

// URLs are decoded (`&amp;` is `&` to a browser), resolved against the base when the Universal Feed
// Parser resolves them, and emptied when their scheme is unsafe (acceptable_attribute_href.xml keeps an
// empty href). A resolved URL is used only when it has a safe scheme, else the original stays.
function sanitizeUrl(ctx: TagContext, key: string, value: string, resolvable: boolean): string {
  const decoded = decodeAttributeValue(value);
  let url = decoded;
  if (resolvable) {
    const trimmed = decoded.trim();
    if (ctx.baseUrl === undefined) {
      url = trimmed || decoded;
    } else {
      const resolved = resolveUrl(trimmed, ctx.baseUrl);
      if (hasSafeScheme(resolved)) return resolved;
    }
  }
  if (isSafeUrl(url) || (isMediaSource(key) && /^\s*data:image\//i.test(url))) return url;
  return '';
}

function isMediaSource(key: string): boolean {
  return key === 'src' || key === 'poster' || key === 'lowsrc' || key === 'dynsrc' || key === 'background';
}
