import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classifyStatus, detectBotChallenge, errorForStatus } from './response.js';

describe('classifyStatus', () => {
  it('sorts statuses into what the fetch loop does with them', () => {
    const cases: [number, string][] = [
      [200, 'ok'],
      [203, 'ok'],
      [204, 'ok'],
      [304, 'not_modified'],
      [410, 'gone'],
      [301, 'redirect'],
      [308, 'redirect'],
      [300, 'error'],
      [404, 'error'],
      [503, 'error'],
    ];
    for (const [status, expected] of cases) assert.equal(classifyStatus(status), expected, String(status));
  });
});

describe('errorForStatus', () => {
  const url = 'https://example.com/feed';

  it('names the kind and says the status in words', () => {
    const cases: [number, string][] = [
      [401, 'forbidden'],
      [403, 'forbidden'],
      [404, 'not_found'],
      [429, 'rate_limited'],
      [503, 'unavailable'],
      [451, 'http_client_error'],
      [502, 'http_server_error'],
      [300, 'unexpected_status'],
    ];
    for (const [status, kind] of cases) assert.equal(errorForStatus({ url, status, headers: {} }).kind, kind);
    assert.equal(
      errorForStatus({ url, status: 502, headers: {} }).message,
      'fetch: the server answered 502 Bad Gateway',
    );
  });

  it('keeps Retry-After on the error', () => {
    const error = errorForStatus({ url, status: 503, headers: {}, retryAfterSeconds: 30 });
    assert.equal(error.retryAfterSeconds, 30);
    assert.equal(error.message, 'fetch: the server answered 503 Service Unavailable; retry after 30 s');
  });
});

describe('detectBotChallenge', () => {
  const page = (html: string) => new TextEncoder().encode(html);

  it('recognises Cloudflare by header and by its interstitial page', () => {
    assert.equal(detectBotChallenge({ 'cf-mitigated': 'challenge' }, undefined), 'Cloudflare');
    assert.equal(detectBotChallenge({}, page('<title>Just a moment...</title>')), 'Cloudflare');
    assert.equal(
      detectBotChallenge({}, page('<script src="/cdn-cgi/challenge-platform/h/b/orchestrate"></script>')),
      'Cloudflare',
    );
  });

  it('leaves ordinary error pages alone', () => {
    assert.equal(
      detectBotChallenge({ server: 'cloudflare' }, page('<title>403 Forbidden</title>')),
      undefined,
    );
  });
});
