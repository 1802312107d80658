// What the hostile-content tests look for in sanitized HTML, written apart from the sanitizer (its own
// lists are what is under test): the vectors of test/fixtures/hostile/vectors/, a finder of anything
// active or deceptive, and the tree an HTML parser reads, to check that sanitizing again changes nothing.

import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { DomUtils, parseDocument } from 'htmlparser2';

const VECTORS_DIR = new URL('../fixtures/hostile/vectors/', import.meta.url);

/** One family of attacks (issue 12): a payload of HTML, and its lines, each a vector of its own. */
export interface HostileVector {
  name: string;
  html: string;
  lines: string[];
}

/** The vectors of test/fixtures/hostile/vectors/, sorted by name. */
export function readVectors(): HostileVector[] {
  return readdirSync(VECTORS_DIR)
    .filter((file) => file.endsWith('.html'))
    .sort()
    .map((file) => {
      const html = readFileSync(new URL(file, VECTORS_DIR), 'utf8');
      const lines = html.split('\n').filter((line) => line.trim() !== '');
      return { name: file.replace(/\.html$/, ''), html, lines };
    });
}

/** Elements that must never come out of the sanitizer, in any namespace (lower-cased). */
export const FORBIDDEN_ELEMENTS: ReadonlySet<string> = new Set([
  // script and what loads or replaces documents
  'script',
  'style',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'meta',
  'base',
  'link',
  // forms and their controls
  'form',
  'input',
  'button',
  'select',
  'option',
  'optgroup',
  'datalist',
  'textarea',
  'keygen',
  'output',
  'isindex',
  'command',
  // wrappers whose content a browser parses differently (mutation XSS)
  'noscript',
  'template',
  'xmp',
  'plaintext',
  'noembed',
  'noframes',
  // SVG animation and foreign content, MathML actions and HTML integration points
  'set',
  'animate',
  'animatetransform',
  'animatemotion',
  'animatecolor',
  'mpath',
  'foreignobject',
  'maction',
  'annotation-xml',
  'mglyph',
  'malignmark',
]);

const SCRIPT_URL_RE = /^(?:javascript|vbscript|livescript|mocha|data):/;
const RASTER_DATA_RE = /^data:image\/(?:png|jpeg|gif|webp|avif|bmp)[;,]/;
const ACTIVE_CSS_RE = /expression\s*\(|javascript:|behavior\s*:|-moz-binding|position\s*:\s*fixed/i;

/** The value as a browser reads it as a URL: C0 controls and spaces around it and tabs and newlines in it gone, lower case. */
function asUrl(value: string): string {
  return value
    .replace(/[\t\n\r]/g, '')
    .replace(/^[\x00-\x20]+/, '')
    .toLowerCase();
}

type DomNode = ReturnType<typeof parseDocument>['children'][number];

/** Visits every node, telling whether it sits inside an <svg>. */
function walk(
  nodes: readonly DomNode[],
  visit: (node: DomNode, inSvg: boolean) => void,
  inSvg = false,
): void {
  for (const node of nodes) {
    visit(node, inSvg);
    if ('children' in node) walk(node.children, visit, inSvg || ('name' in node && node.name === 'svg'));
  }
}

/**
 * What in the HTML could run script, submit or navigate by itself: forbidden elements, event-handler
 * attributes, `for` (a label clicks the page's control of that id), `formaction`, an img's name (it
 * clobbers document.NAME), script URLs in any attribute, data: URLs other than a raster
 * image in an img's src, and active CSS. Empty when there is nothing.
 */
export function findActiveContent(html: string): string[] {
  const found: string[] = [];
  walk(parseDocument(html).children, (node, inSvg) => {
    if (node.type !== 'tag' && node.type !== 'script' && node.type !== 'style') return;
    const name = node.name.toLowerCase();
    // An HTML title is raw text that could end early; SVG's title is an ordinary element.
    if (FORBIDDEN_ELEMENTS.has(name) || (name === 'title' && !inSvg)) found.push(`<${name}>`);
    for (const [key, value] of Object.entries(node.attribs)) {
      const attribute = key.toLowerCase();
      const url = asUrl(value);
      if (attribute.startsWith('on')) found.push(`${name} ${attribute}`);
      else if (attribute === 'for' || attribute === 'formaction' || (name === 'img' && attribute === 'name'))
        found.push(`${name} ${attribute}`);
      else if (attribute === 'style' && ACTIVE_CSS_RE.test(value)) found.push(`${name} style=${value}`);
      else if (
        SCRIPT_URL_RE.test(url) &&
        !(name === 'img' && attribute === 'src' && RASTER_DATA_RE.test(url))
      )
        found.push(`${name} ${attribute}=${value}`);
    }
  });
  return found;
}

/**
 * The tree an HTML parser reads from the markup, written one way: elements with their attributes
 * sorted, text decoded and joined, comments. Two strings with the same tree give the same result
 * whatever they differ in (`<br>` and `<br />`, an end tag written or implied).
 */
export function treeOf(html: string): string {
  let out = '';
  let text = '';
  const flush = (): void => {
    if (text !== '') out += JSON.stringify(text);
    text = '';
  };
  const write = (nodes: readonly DomNode[]): void => {
    for (const node of nodes) {
      if (node.type === 'text') {
        text += node.data;
      } else if (node.type === 'comment') {
        flush();
        out += `<!--${node.data}-->`;
      } else if ('children' in node && 'name' in node) {
        flush();
        const attrs = Object.entries(node.attribs)
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([k, v]) => ` ${k}=${JSON.stringify(v)}`)
          .join('');
        out += `<${node.name}${attrs}>`;
        write(node.children);
        flush();
        out += `</${node.name}>`;
      }
    }
  };
  write(parseDocument(html).children);
  flush();
  return out;
}

/** The markup as XHTML (well-formed XML), for the containers that carry XHTML: Atom type="xhtml". */
export function toXhtml(html: string): string {
  return DomUtils.getOuterHTML(parseDocument(html).children, { xmlMode: true, decodeEntities: true });
}

// Pieces of the vectors: random strings of them make tags, attributes, comments and wrappers in every
// arrangement, well-formed or not.
const PIECES = [
  '<',
  '>',
  '/',
  '/>',
  '"',
  "'",
  '=',
  '&',
  '&#x09;',
  ';',
  ' ',
  '<!--',
  '-->',
  'x',
  'javascript:',
  'on',
  'href',
  'title',
  ...['svg', 'math', 'p', 'b', 'a', 'img', 'style', 'title', 'noscript', 'template', 'textarea'],
  ...['xmp', 'form', 'input', 'foreignObject', 'set', 'animate', 'mtext', 'mglyph', 'table', 'iframe'],
  '<svg>',
  '</svg>',
  '<math><mtext>',
  '</p>',
  '<style>',
  '</style>',
  '<noscript>',
  '</noscript>',
  '<img src=x onerror=alert(1)>',
  // whole tags, so that nestings across namespaces come up often
  ...['<svg>', '<math>', '<title>', '<desc>', '<mi>', '<mtext>', '<a>', '<b>', '<table>', '<td>', '<g>'],
  ...['<text>', '<select>', '<option>', '<textarea>', '<xmp>', '<template>', '<foreignObject>', '<p>'],
  ...['</title>', '</desc>', '</mi>', '</math>', '</a>', '</table>', '</td>', '</g>'],
  '<a title="</title><img src=x onerror=alert(1)>">',
];

/** Random markup made of vector pieces (fast-check), for property tests of the sanitizer. */
export function hostileMarkup(): fc.Arbitrary<string> {
  return fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }).map((parts) => parts.join(''));
}
