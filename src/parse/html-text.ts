import { Parser } from 'htmlparser2';

// Elements after which text continues on a new line, so that words of two paragraphs do not run together.
const BLOCK = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'br',
  'dd',
  'div',
  'dl',
  'dt',
  'figcaption',
  'figure',
  'footer',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'li',
  'ol',
  'p',
  'pre',
  'section',
  'table',
  'tr',
  'ul',
]);
const SKIP = new Set(['script', 'style', 'template']);

/**
 * The text of an HTML fragment, as a reader sees it: tags removed, entities decoded, block elements
 * on their own lines, runs of white space collapsed. Used for summaries, search and jf2 `content.text`.
 */
export function htmlToText(html: string): string {
  if (!html.includes('<') && !html.includes('&')) return collapse(html);
  let out = '';
  let skipping = 0;
  const parser = new Parser(
    {
      onopentag(name) {
        if (SKIP.has(name)) skipping++;
        else if (BLOCK.has(name)) out += '\n';
      },
      onclosetag(name) {
        if (SKIP.has(name)) skipping = Math.max(0, skipping - 1);
        else if (BLOCK.has(name)) out += '\n';
      },
      ontext(text) {
        if (skipping === 0) out += text;
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  return collapse(out);
}

function collapse(text: string): string {
  return text
    .split('\n')
    .map((line) => line.replace(/[ \t\r\f\v\u00a0]+/g, ' ').trim())
    .filter((line, i, lines) => line !== '' || (i > 0 && lines[i - 1] !== ''))
    .join('\n')
    .trim();
}
