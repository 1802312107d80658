import { randomUUID } from 'node:crypto';
import { raw } from 'hono/html';
import type { Child } from 'hono/jsx';

// A page is one string of 80,000 characters and more. One character outside Latin-1 anywhere in it (an
// arrow, an ellipsis, a curly quote in a title) makes V8 keep it at two bytes a character, and past
// 128 KB such a string is allocated on fresh pages of its own, which cost a reader page 1-2 ms of its
// 6-9 (bench:serve). So the big parts of a page (the sidebar, each entry) are rendered as chunks of
// their own, and the page is encoded to UTF-8 chunk by chunk: no string ever holds the whole page.

/**
 * The chunks of the page being rendered; pages render synchronously, so one at a time. Markers carry a
 * nonce of the render: a feed's HTML keeps its comments, and one that wrote a marker of its own must show
 * as itself, not pull a chunk in.
 */
let collected: { nonce: string; chunks: string[] } | undefined;

/** Renders a JSX child to HTML, synchronously: every view of the web UI is a plain function. */
function renderNow(child: Child): string {
  // biome-ignore lint/complexity/noUselessFragments: a Child may be a string or an array, which the fragment renders
  const out = (<>{child}</>).toString() as unknown;
  if (typeof out !== 'string') throw new Error('web: views render synchronously (an async component?)');
  return out;
}

/** A part of a page rendered apart (see above): its place in the page is kept by a marker. */
export function Chunk(props: { children?: Child }) {
  const chunks = collected;
  collected = undefined; // a chunk within a chunk stays in it
  try {
    const html = renderNow(props.children);
    if (chunks === undefined) return raw(html);
    chunks.chunks.push(html);
    return raw(`<!--tidings:${chunks.nonce}:${chunks.chunks.length - 1}-->`);
  } finally {
    collected = chunks;
  }
}

/** Renders a page and returns its HTML as UTF-8, encoded chunk by chunk. */
export function renderBytes(page: Child) {
  const outer = collected;
  const nonce = randomUUID();
  const chunks: string[] = [];
  collected = { nonce, chunks };
  let html: string;
  try {
    html = renderNow(page);
  } finally {
    collected = outer;
  }
  // split with the capture: text at even places, chunk numbers at odd ones
  const pieces = html
    .split(new RegExp(`<!--tidings:${nonce}:(\\d+)-->`))
    .map((piece, i) => (i % 2 === 0 ? piece : (chunks[Number(piece)] ?? '')));
  // encoded into one buffer of room enough (a UTF-16 unit takes at most three bytes of UTF-8)
  let room = 0;
  for (const piece of pieces) room += piece.length * 3;
  const bytes = Buffer.allocUnsafe(room);
  let length = 0;
  for (const piece of pieces) length += bytes.write(piece, length);
  return bytes.subarray(0, length);
}
