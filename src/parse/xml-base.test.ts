// XML Base inside Atom XHTML content (RFC 4287 2: any element may carry xml:base).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseFeed } from './index.js';

const entry = (content: string) =>
  `<feed xmlns="http://www.w3.org/2005/Atom" xml:base="http://b.example/a/"><title>t</title><id>urn:x</id>
  <updated>2026-01-01T00:00:00Z</updated><entry><id>urn:1</id><title>e</title><updated>2026-01-01T00:00:00Z</updated>
  <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"${content}</div></content></entry></feed>`;

const contentOf = (xml: string) => parseFeed(Buffer.from(xml)).entries[0]?.content?.[0]?.value ?? '';

describe('xml:base inside XHTML content', () => {
  it('resolves the URLs under an element by the xml:base it and its ancestors set, the wrapper div included', () => {
    const html = contentOf(
      entry(
        ' xml:base="d/"><a href="r">one</a><p xml:base="q/"><a href="r">two</a><img src="i.png"/></p><a href="/abs">3</a>',
      ),
    );
    assert.match(html, /<a href="http:\/\/b\.example\/a\/d\/r">one<\/a>/);
    assert.match(html, /<a href="http:\/\/b\.example\/a\/d\/q\/r">two<\/a>/);
    assert.match(html, /<img src="http:\/\/b\.example\/a\/d\/q\/i\.png"/);
    assert.match(html, /<a href="http:\/\/b\.example\/abs">3<\/a>/);
    assert.doesNotMatch(html, /xml:base/);
  });

  it('resolves against the content element when nothing inside sets one', () => {
    assert.match(
      contentOf(entry('><a href="r">plain</a>')),
      /<a href="http:\/\/b\.example\/a\/r">plain<\/a>/,
    );
  });

  it('ignores an xml:base that is not a safe URL', () => {
    const html = contentOf(entry('><p xml:base="javascript:alert(1)//"><a href="r">x</a></p>'));
    assert.match(html, /<a href="http:\/\/b\.example\/a\/r">x<\/a>/);
  });
});
