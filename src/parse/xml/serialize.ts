import { isElement, type XmlElement } from './tree.js';

// HTML elements that never have content: written as `<br />` so HTML and XHTML readers agree.
const VOID = new Set([
  'area',
  'base',
  'basefont',
  'bgsound',
  'br',
  'col',
  'command',
  'embed',
  'frame',
  'hr',
  'image',
  'img',
  'input',
  'isindex',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);

// Attributes whose value is a URL: resolved against an xml:base set inside the markup.
const URL_ATTRIBUTES = new Set([
  'href',
  'src',
  'cite',
  'poster',
  'longdesc',
  'background',
  'action',
  'usemap',
]);

/**
 * XML Base inside XHTML content (RFC 4287 2: any element may carry xml:base): the base at an element,
 * from the one in effect at its parent, and a URL resolved against a base.
 */
export interface MarkupBases {
  base: string | undefined;
  /** True once an xml:base inside the markup set `base`: only then are its URLs written resolved. */
  changed?: boolean;
  enter: (el: XmlElement, base: string | undefined) => string | undefined;
  resolve: (url: string, base: string) => string;
}

/**
 * Writes an element's children back as markup: for XHTML content (text escaped) or for HTML that a
 * feed put inside an element without escaping it (text kept as the markup it is). With `bases`, the
 * URLs under an element that sets xml:base are written resolved against it (the base of the whole is
 * the caller's, applied later to what stays relative).
 */
export function serializeChildren(el: XmlElement, escapeText: boolean, bases?: MarkupBases): string {
  let out = '';
  for (const child of el.children) {
    if (isElement(child)) out += serializeElement(child, escapeText, bases);
    else out += escapeText && !child.cdata ? escapeXml(child.text) : child.text;
  }
  return out;
}

function serializeElement(el: XmlElement, escapeText: boolean, bases: MarkupBases | undefined): string {
  const name = el.local;
  const inner =
    bases && el.attrs['xml:base'] !== undefined
      ? { ...bases, base: bases.enter(el, bases.base), changed: true }
      : bases;
  const rebased = inner?.changed ? inner.base : undefined;
  let out = `<${name}`;
  for (const key in el.attrs) {
    if (key === 'xmlns' || key.startsWith('xmlns:') || (bases && key === 'xml:base')) continue;
    let value = el.attrs[key] ?? '';
    if (rebased !== undefined && URL_ATTRIBUTES.has(key.toLowerCase()))
      value = bases?.resolve(value.trim(), rebased) ?? value;
    out += ` ${key}="${escapeAttr(value)}"`;
  }
  if (el.children.length === 0 && VOID.has(name.toLowerCase())) return `${out} />`;
  return `${out}>${serializeChildren(el, escapeText, inner)}</${name}>`;
}

/** Escapes &, < and > for text content. */
export function escapeXml(text: string): string {
  if (!/[&<>]/.test(text)) return text;
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeAttr(text: string): string {
  if (!/[&<>"]/.test(text)) return text;
  return escapeXml(text).replace(/"/g, '&quot;');
}
