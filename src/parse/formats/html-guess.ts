import { decodeHTMLStrict } from 'entities/decode';

// Elements that make a plain RSS value count as HTML when they are all it contains.
const HTML_ELEMENTS = new Set(
  (
    'a abbr acronym address area article aside audio b big blockquote br button canvas caption center cite ' +
    'code col colgroup command datagrid datalist dd del details dfn dialog dir div dl dt em event-source ' +
    'fieldset figcaption figure font footer form h1 h2 h3 h4 h5 h6 header hr i img input ins kbd keygen ' +
    'label legend li m map menu meter multicol nav nextid noscript ol optgroup option output p pre progress ' +
    'q s samp section select small sound source spacer span strike strong sub sup table tbody td textarea ' +
    'tfoot th thead time tr tt u ul var video'
  ).split(' '),
);

const CLOSE_TAG_RE = /<\/(\w+)>/;
const ENTITY_RE = /&#?\w+;/;
const TAG_NAME_RE = /<\/?(\w+)/g;
const NAMED_ENTITY_RE = /&(\w+);/g;

/**
 * RSS never says whether a title or description is HTML. A value counts as HTML when it has a closing
 * tag or an entity reference, every tag is an HTML element, and every entity is an HTML entity.
 */
export function looksLikeHtml(value: string): boolean {
  if (!value.includes('<') && !value.includes('&')) return false;
  if (!CLOSE_TAG_RE.test(value) && !ENTITY_RE.test(value)) return false;
  for (const m of value.matchAll(TAG_NAME_RE)) {
    if (!HTML_ELEMENTS.has((m[1] as string).toLowerCase())) return false;
  }
  for (const m of value.matchAll(NAMED_ENTITY_RE)) {
    if (decodeHTMLStrict(m[0]) === m[0]) return false;
  }
  return true;
}
