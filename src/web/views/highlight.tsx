import type { Child } from 'hono/jsx';

const SNIPPET_CHARS = 280;

function termPattern(terms: readonly string[]): RegExp | undefined {
  const parts = [...terms]
    .filter((t) => t.trim() !== '')
    .sort((a, b) => b.length - a.length)
    .map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+'));
  return parts.length > 0 ? new RegExp(`(${parts.join('|')})`, 'giu') : undefined;
}

/**
 * The text with each match of the terms (case aside) wrapped in <mark>. Text in, elements out: the
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
