import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { freshnessSeconds, parseCacheControl, parseHttpDate, parseRetryAfter } from './cache-headers.js';

const NOW = Date.parse('2024-05-01T12:00:00Z');

describe('parseCacheControl', () => {
  it('reads max-age, s-maxage and flags, case-insensitively', () => {
    const cc = parseCacheControl('Public, Max-Age=300, s-maxage=600, must-revalidate, immutable');
    assert.equal(cc.maxAgeSeconds, 300);
    assert.equal(cc.sharedMaxAgeSeconds, 600);
    assert.equal(cc.mustRevalidate, true);
    assert.equal(cc.immutable, true);
    assert.equal(cc.noStore, false);
    assert.equal(cc.directives['public'], true);
  });

  it('reads quoted values, including commas inside them', () => {
    const cc = parseCacheControl('private="set-cookie, x-token", max-age="60"');
    assert.equal(cc.directives['private'], 'set-cookie, x-token');
    assert.equal(cc.maxAgeSeconds, 60);
  });

  it('takes only an unqualified no-cache as no-cache (RFC 9111 section 5.2.2.4)', () => {
    assert.equal(parseCacheControl('no-cache').noCache, true);
    assert.equal(parseCacheControl('no-cache="set-cookie", max-age=60').noCache, false);
    assert.equal(parseCacheControl('no-store').noStore, true);
  });

  it('ignores invalid numbers, keeps the first of duplicates and caps huge ones at 2^31', () => {
    assert.equal(parseCacheControl('max-age=-5').maxAgeSeconds, undefined);
    assert.equal(parseCacheControl('max-age=1.5').maxAgeSeconds, undefined);
    assert.equal(parseCacheControl('max-age=10, max-age=20').maxAgeSeconds, 10);
    assert.equal(parseCacheControl('max-age=99999999999999999999').maxAgeSeconds, 2_147_483_648);
  });

  it('returns no directives for an empty or missing header', () => {
    assert.deepEqual(parseCacheControl(undefined).directives, {});
    assert.deepEqual(parseCacheControl(' , ').directives, {});
  });

  it('skips empty list elements', () => {
    const cc = parseCacheControl('max-age=60,, public');
    assert.equal(cc.maxAgeSeconds, 60);
    assert.equal(cc.directives['public'], true);
  });
});

describe('parseHttpDate', () => {
  const expected = Date.UTC(1994, 10, 6, 8, 49, 37);

  it('reads the three formats of RFC 9110 section 5.6.7', () => {
    assert.equal(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT'), expected);
    assert.equal(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT'), expected);
    assert.equal(parseHttpDate('Sun Nov  6 08:49:37 1994'), expected);
  });

  it('rejects what is not an HTTP date', () => {
    for (const text of ['0', '-1', '', 'tomorrow', '2024-05-01T12:00:00Z', 'Sun, 31 Feb 1994 08:49:37 GMT']) {
      assert.equal(parseHttpDate(text), undefined, text);
    }
  });
});

describe('parseRetryAfter', () => {
  it('reads delta seconds', () => {
    assert.equal(parseRetryAfter('120', NOW), 120);
    assert.equal(parseRetryAfter(' 0 ', NOW), 0);
  });

  it('reads an HTTP date relative to now, rounding up, and never below 0', () => {
    assert.equal(parseRetryAfter('Wed, 01 May 2024 12:05:00 GMT', NOW), 300);
    assert.equal(parseRetryAfter('Wed, 01 May 2024 12:00:00 GMT', NOW + 500), 0);
    assert.equal(parseRetryAfter('Wed, 01 May 2024 12:00:01 GMT', NOW + 500), 1);
    assert.equal(parseRetryAfter('Tue, 30 Apr 2024 12:00:00 GMT', new Date(NOW)), 0);
  });

  it('honours a week at most, in seconds or as a date: ten years would stop a feed for good', () => {
    const week = 7 * 24 * 3600;
    assert.equal(parseRetryAfter(String(week), NOW), week);
    assert.equal(parseRetryAfter('315360000', NOW), week);
    assert.equal(parseRetryAfter('9'.repeat(30), NOW), week);
    assert.equal(parseRetryAfter('Wed, 03 Dec 2036 12:00:00 GMT', NOW), week);
  });

  it('returns undefined for values it cannot read', () => {
    for (const value of [undefined, '', 'soon', '-5', '1.5'])
      assert.equal(parseRetryAfter(value, NOW), undefined);
  });
});

describe('freshnessSeconds', () => {
  it('prefers max-age, then s-maxage, and subtracts Age', () => {
    assert.equal(
      freshnessSeconds({ 'cache-control': 'max-age=600', expires: 'Thu, 01 Jan 2099 00:00:00 GMT' }, NOW),
      600,
    );
    assert.equal(freshnessSeconds({ 'cache-control': 's-maxage=900' }, NOW), 900);
    assert.equal(freshnessSeconds({ 'cache-control': 'max-age=600', age: '100' }, NOW), 500);
    assert.equal(freshnessSeconds({ 'cache-control': 'max-age=60', age: '100' }, NOW), 0);
  });

  it('gives 0 for no-store and no-cache', () => {
    assert.equal(freshnessSeconds({ 'cache-control': 'no-store, max-age=600' }, NOW), 0);
    assert.equal(freshnessSeconds({ 'cache-control': 'no-cache' }, NOW), 0);
  });

  it('uses Expires minus Date, or minus now without a Date', () => {
    const headers = { expires: 'Wed, 01 May 2024 13:00:00 GMT', date: 'Wed, 01 May 2024 12:30:00 GMT' };
    assert.equal(freshnessSeconds(headers, NOW), 1800);
    assert.equal(freshnessSeconds({ expires: 'Wed, 01 May 2024 13:00:00 GMT' }, NOW), 3600);
  });

  it('takes an invalid Expires such as "0" as already expired (RFC 9111 section 5.3)', () => {
    assert.equal(freshnessSeconds({ expires: '0' }, NOW), 0);
  });

  it('returns undefined when the headers say nothing about freshness', () => {
    assert.equal(freshnessSeconds({ 'cache-control': 'public' }, NOW), undefined);
    assert.equal(freshnessSeconds({}, NOW), undefined);
  });
});
