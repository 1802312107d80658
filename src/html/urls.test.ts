import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hasSafeScheme, isSafeUrl, resolveUrl } from './urls.js';

describe('resolveUrl', () => {
  const base = 'http://a/b/c/d;p?q';

  it('resolves the RFC 3986 section 5.4.1 examples', () => {
    const examples: [string, string][] = [
      ['g:h', 'g:h'],
      ['g', 'http://a/b/c/g'],
      ['./g', 'http://a/b/c/g'],
      ['g/', 'http://a/b/c/g/'],
      ['/g', 'http://a/g'],
      ['//g', 'http://g'],
      ['?y', 'http://a/b/c/d;p?y'],
      ['g?y', 'http://a/b/c/g?y'],
      ['#s', 'http://a/b/c/d;p?q#s'],
      ['g#s', 'http://a/b/c/g#s'],
      [';x', 'http://a/b/c/;x'],
      ['.', 'http://a/b/c/'],
      ['..', 'http://a/b/'],
      ['../g', 'http://a/b/g'],
      ['../..', 'http://a/'],
      ['../../g', 'http://a/g'],
    ];
    for (const [href, expected] of examples) assert.equal(resolveUrl(href, base), expected, href);
  });

  it('drops `..` segments that would climb above the root, as browsers do', () => {
    assert.equal(resolveUrl('../../../g', base), 'http://a/g');
    assert.equal(resolveUrl('/../g', base), 'http://a/g');
    assert.equal(resolveUrl('../x', 'http://h'), 'http://h/x');
  });

  it('returns the base for an empty reference and the reference without a base', () => {
    assert.equal(resolveUrl('', base), base);
    assert.equal(resolveUrl('/x', undefined), '/x');
    assert.equal(resolveUrl('/x', ''), '/x');
  });

  it('resolves a fragment-only reference against the whole base', () => {
    assert.equal(resolveUrl('#top', 'http://example.com/post?id=1'), 'http://example.com/post?id=1#top');
  });

  it('takes the base scheme for protocol-relative references', () => {
    assert.equal(
      resolveUrl('//cdn.example.com/a.png', 'https://example.com/'),
      'https://cdn.example.com/a.png',
    );
  });

  it('keeps non-ASCII characters as written (IRIs are not percent-encoded)', () => {
    assert.equal(resolveUrl('À', 'http://any.test/'), 'http://any.test/À');
    assert.equal(resolveUrl('/feed', 'http://www.詹姆斯.com/'), 'http://www.詹姆斯.com/feed');
  });

  it('trims the reference and drops tabs and newlines in it', () => {
    assert.equal(
      resolveUrl(' /relative/uri ', 'http://127.0.0.1:8097/x'),
      'http://127.0.0.1:8097/relative/uri',
    );
    assert.equal(resolveUrl('/a\n/b\t', 'http://h/'), 'http://h/a/b');
  });

  it('keeps spaces inside bases and references', () => {
    assert.equal(resolveUrl('x y', 'http://h/a b/c'), 'http://h/a b/x y');
  });

  it('removes the extra slashes of http:///host', () => {
    assert.equal(resolveUrl('http:///example.com/test/'), 'http://example.com/test/');
  });

  it('leaves references alone against bases that are not hierarchical', () => {
    assert.equal(resolveUrl('entry/1', 'tag:example.com,2004:feed'), 'entry/1');
    assert.equal(resolveUrl('x', 'mailto:someone@example.com'), 'x');
  });

  it('resolves against an unknown scheme that has an authority', () => {
    assert.equal(resolveUrl('x', 'feed://h/a/b'), 'feed://h/a/x');
  });

  it('returns absolute references of another scheme unchanged', () => {
    assert.equal(resolveUrl('mailto:a@example.com', 'http://h/'), 'mailto:a@example.com');
    assert.equal(resolveUrl('javascript:alert(1)', 'http://h/'), 'javascript:alert(1)');
  });

  it('resolves relative bases against each other (nested xml:base)', () => {
    assert.equal(resolveUrl('entry/', 'http://example.com/feed/'), 'http://example.com/feed/entry/');
    assert.equal(resolveUrl('../', 'http://example.com/test/entry/'), 'http://example.com/test/');
    assert.equal(resolveUrl('entry/', 'feed/'), 'feed/entry/');
  });

  it('never throws', () => {
    for (const junk of ['::::', '%', '\u0000', 'http://[::1', '//', '?', '#', ':/', 'a:', '\ud800']) {
      assert.equal(typeof resolveUrl(junk, 'http://h/a'), 'string');
      assert.equal(typeof resolveUrl('x', junk), 'string');
    }
  });
});

describe('isSafeUrl', () => {
  it('accepts the schemes a feed reader may link to, and relative references', () => {
    for (const url of [
      'http://x',
      'HTTPS://x',
      'ftp://x',
      'mailto:a@b',
      'magnet:?xt=1',
      '/x',
      'x',
      '#x',
      '?q',
      '',
    ]) {
      assert.equal(isSafeUrl(url), true, url);
    }
  });

  it('refuses script and data URLs, however they are disguised', () => {
    for (const url of [
      'javascript:x',
      ' JaVaScRiPt:x',
      'java\nscript:x',
      'java\tscript:x',
      '\u0001javascript:x',
      'vbscript:x',
      'data:text/html,x',
      'data:image/png,x',
      'about:blank',
    ]) {
      assert.equal(isSafeUrl(url), false, JSON.stringify(url));
    }
  });

  it('refuses unknown schemes (the Universal Feed Parser empties them)', () => {
    assert.equal(isSafeUrl('x-custom:thing'), false);
  });
});

describe('hasSafeScheme', () => {
  it('requires an absolute URL', () => {
    assert.equal(hasSafeScheme('http://x/'), true);
    assert.equal(hasSafeScheme('/x'), false);
    assert.equal(hasSafeScheme('javascript:x'), false);
  });
});
