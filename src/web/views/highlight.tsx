import type { Child } from 'hono/jsx';

const SNIPPET_CHARS = 280;

// Scripts written without spaces between words, which search finds anywhere inside a word (the index's
// rule for Chinese, Japanese and Korean): their terms are highlighted wherever they occur.
const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const WORD_CHARACTER = /[\p{L}\p{N}\p{M}]/u;

// Any other term is a whole word, as search matches it: "hat" is not highlighted inside "that". An edge
// of the term that is no letter or digit ("(c)") needs no boundary: the index does not keep it.
function termSource(term: string): string {
  const escaped = term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+');
  if (UNSPACED.test(term)) return escaped;
  const before = WORD_CHARACTER.test(term.charAt(0)) ? '(?<![\\p{L}\\p{N}\\p{M}])' : '';
  const after = WORD_CHARACTER.test(term.slice(-1)) ? '(?![\\p{L}\\p{N}\\p{M}])' : '';
  return `${before}${escaped}${after}`;
}

function termPattern(terms: readonly string[]): RegExp | undefined {
  const parts = [...terms]
    .filter((t) => t.trim() !== '')
    .sort((a, b) => b.length - a.length)
    .map(termSource);
  return parts.length > 0 ? new RegExp(`(${parts.join('|')})`, 'giu') : undefined;
}

/**
 * The text with each match of the terms (case aside; whole words but in unspaced scripts) wrapped in <mark>. Text in, elements out: the
 * text stays text (hono/jsx escapes it), so no feed markup can ride along with a highlight.
 */
export function highlight(text: string, terms: readonly string[]): Child[] {
  const pattern = termPattern(terms);
  if (!pattern) return [text];
  // split() with one capturing group puts the matches at the odd indexes
  return text.split(pattern).map((part, i) => (i % 2 === 1 ? <mark>{part}</mark> : part));
}

/** About SNIPPET_CHARS of the text around its first match (the start when nothing matches). */
export function snippetAround(text: string, terms: readonly string[]): string {
  const line = text.replace(/\s+/g, ' ').trim();
  const first = termPattern(terms)?.exec(line)?.index ?? 0;
  const start = Math.max(0, Math.min(first - 60, line.length - SNIPPET_CHARS));
  const cut = line.slice(start, start + SNIPPET_CHARS);
  return `${start > 0 ? '…' : ''}${cut}${start + SNIPPET_CHARS < line.length ? '…' : ''}`;
}
