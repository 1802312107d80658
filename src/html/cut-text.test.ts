import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DomUtils, parseDocument } from 'htmlparser2';
import { findActiveContent, treeOf } from '../../test/helpers/hostile-html.js';
import { SHARED_DIR } from '../../test/helpers/shared.js';
import { parseFeed } from '../parse/index.js';
import { cutHtml, cutPlainText, utf8Bytes } from './cut-text.js';
import { sanitizeHtml } from './sanitize.js';

const LONE_SURROGATE_RE = /[\uD800-\uDFFF]/u;
const HALF_REFERENCE_RE = /&[#\w]*$/;
const END_TAGS_RE = /(?:<\/[\w:-]+>)*$/;

function textOf(html: string): string {
  return DomUtils.textContent(parseDocument(html).children).replace(/\s+/g, ' ').trim();
}

/**
 * What every cut of sanitized HTML must be: within the limit; the original up to a point, then end tags
 * only; never a half tag, reference or surrogate pair; as stable when sanitized again as sanitized HTML
 * (nothing left open, no stray end tag); the original's text up to a point.
 */
function assertGoodCut(original: string, cut: string, maxBytes: number): void {
  assert.ok(utf8Bytes(cut) <= maxBytes, `${utf8Bytes(cut)} bytes over ${maxBytes}`);
  const kept = cut.replace(END_TAGS_RE, '');
  assert.ok(original.startsWith(kept), `not a prefix and end tags: ${cut.slice(-200)}`);
  assert.doesNotMatch(kept, HALF_REFERENCE_RE);
  assert.doesNotMatch(cut, LONE_SURROGATE_RE);
  const lastOpen = kept.lastIndexOf('<');
  assert.ok(lastOpen < 0 || kept.indexOf('>', lastOpen) > 0, `a half tag: ${kept.slice(-200)}`);
  assert.equal(treeOf(sanitizeHtml(cut)), treeOf(cut), `changed when sanitized again: ${cut.slice(-300)}`);
  assert.deepEqual(findActiveContent(cut), []);
  assert.ok(textOf(original).startsWith(textOf(cut)), `the text is not a prefix: ${textOf(cut).slice(-200)}`);
}

describe('cutHtml', () => {
  it('returns HTML that fits unchanged', () => {
    const html = '<p>short <b>text</b></p>';
    assert.equal(cutHtml(html, utf8Bytes(html)), html);
  });

  it('cuts at the last element boundary that fits and closes what is open there', () => {
    const html = '<div><p>one</p><p>two</p><p>three</p></div>';
    const wanted = '<div><p>one</p><p>two</p></div>';
    assert.equal(cutHtml(html, utf8Bytes(wanted)), wanted);
    assert.equal(cutHtml(html, utf8Bytes(wanted) + 5), wanted);
    // the end tags it needs count: one byte less and the second paragraph goes, not the </div>
    assert.equal(cutHtml(html, utf8Bytes(wanted) - 1), '<div><p>one</p></div>');
  });

  it('closes elements a later start tag would have closed implicitly only once', () => {
    // the sanitizer writes <li> without </li> where the next <li> closes it
    const html = '<ul><li>one<li>two<li>three</ul>';
    assert.equal(cutHtml(html, 28), '<ul><li>one<li>two</li></ul>');
  });

  it('cuts a text node that holds most of the content at a space, never inside a reference or a pair', () => {
    const html = `<p><b>lead</b> ${'word &amp; 😀 '.repeat(200)}</p>`;
    for (const maxBytes of [300, 301, 302, 303, 304, 305, 306, 307, 308, 999, 1000, 1001]) {
      const cut = cutHtml(html, maxBytes);
      assertGoodCut(html, cut, maxBytes);
      assert.ok(utf8Bytes(cut) > maxBytes / 2, `kept only ${utf8Bytes(cut)} bytes`);
      assert.match(cut, /(?:word|&amp;|😀)<\/p>$/);
    }
  });

  it('never keeps half a tag, a half reference or half a surrogate pair, whatever the limit', () => {
    const html = sanitizeHtml(
      '<div class="a"><h2 title="x &quot;y&quot;">Ünïcode 😀 &amp; &eacute;</h2><p>one <a href="https://e.example/?a=1&amp;b=2">link</a> two<br>three</p><ul><li>α<li>β</ul><!-- note --><svg><circle r="1"/></svg><table><tr><td>1<td>2</table></div>',
    );
    for (let maxBytes = 0; maxBytes <= utf8Bytes(html); maxBytes++)
      assertGoodCut(html, cutHtml(html, maxBytes), maxBytes);
  });

  it('cuts every long HTML text of the perf corpus well', {
    skip: SHARED_DIR === undefined && 'no ../shared',
  }, (t) => {
    // the first 60 long ones (all 300 took seconds)
    let checked = 0;
    for (const file of feedFiles(join(SHARED_DIR ?? '', 'perf', 'corpus'))) {
      if (checked >= 60) break;
      const result = parseFeed(readFileSync(file), { baseUrl: 'https://feed.example/' });
      for (const entry of result.entries)
        for (const text of entry.content ?? []) {
          if (text.type === 'text/plain' || text.value.length < 3000 || checked >= 60) continue;
          const bytes = utf8Bytes(text.value);
          for (const share of [0.3, 0.8]) {
            const maxBytes = Math.floor(bytes * share);
            assertGoodCut(text.value, cutHtml(text.value, maxBytes), maxBytes);
          }
          checked++;
        }
    }
    t.diagnostic(`${checked} HTML texts cut two ways`);
    assert.equal(checked, 60);
  });
});

describe('cutPlainText', () => {
  it('cuts at a space near the limit, never inside a surrogate pair', () => {
    const text = 'one two three 😀😀😀😀';
    assert.equal(cutPlainText(text, 12), 'one two');
    assert.equal(cutPlainText(text, 18), 'one two three');
    assert.equal(cutPlainText('😀😀😀', 9), '😀😀');
    assert.equal(cutPlainText(text, 100), text);
  });
});

function feedFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return feedFiles(path);
      return /\.(?:xml|rss|atom|rdf|json)$/.test(name) ? [path] : [];
    });
}
