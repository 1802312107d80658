import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { headerPushLinks, parseLinkHeader } from './links.js';

describe('WebSub Link header discovery', () => {
  const base = 'https://example.com/feed.xml';

  it('reads hub and self from several links, headers joined with commas, rel lists and relative targets', () => {
    const value =
      '</hub>; rel="hub", <https://example.com/canonical>; title="a, b; c"; rel="alternate self", <https://other.example/x>; rel=next';
    assert.deepEqual(parseLinkHeader(value, base), [
      { href: 'https://example.com/hub', rels: ['hub'] },
      { href: 'https://example.com/canonical', rels: ['alternate', 'self'] },
      { href: 'https://other.example/x', rels: ['next'] },
    ]);
    assert.deepEqual(headerPushLinks({ link: value }, base), {
      hub: 'https://example.com/hub',
      self: 'https://example.com/canonical',
    });
  });

  it('takes the first hub, matches rel case-insensitively and ignores non-http targets', () => {
    const value =
      '<javascript:alert(1)>; rel=hub, <https://a.example/hub>; REL="HUB", <https://b.example/hub>; rel=hub';
    assert.deepEqual(headerPushLinks({ link: value }, base), { hub: 'https://a.example/hub' });
  });

  it('finds nothing without a Link header or without a hub', () => {
    assert.deepEqual(headerPushLinks({}, base), {});
    assert.deepEqual(headerPushLinks({ link: '<https://example.com/>; rel="alternate"' }, base), {});
  });
});
