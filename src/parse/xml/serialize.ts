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

/**
 * Writes an element's children back as markup: for XHTML content (text escaped) or for HTML that a
 * feed put inside an element without escaping it (text kept as the markup it is).
 */
export function serializeChildren(el: XmlElement, escapeText: boolean): string {
  let out = '';
  for (const child of el.children) {
    if (isElement(child)) out += serializeElement(child, escapeText);
    else out += escapeText && !child.cdata ? escapeXml(child.text) : child.text;
  }
  return out;
}

function serializeElement(el: XmlElement, escapeText: boolean): string {
  const name = el.local;
  let out = `<${name}`;
  for (const key in el.attrs) {
    if (key === 'xmlns' || key.startsWith('xmlns:')) continue;
    out += ` ${key}="${escapeAttr(el.attrs[key] ?? '')}"`;
  }
  if (el.children.length === 0 && VOID.has(name.toLowerCase())) return `${out} />`;
  return `${out}>${serializeChildren(el, escapeText)}</${name}>`;
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
