import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { createLogger, redactSecrets } from './log.js';

describe('log redaction', () => {
  it('masks the password of a URL, and a user name that stands alone (a token)', () => {
    assert.equal(
      redactSecrets('fetch: 401 at https://reader:s3cret@feeds.example/a.xml'),
      'fetch: 401 at https://reader:***@feeds.example/a.xml',
    );
    assert.equal(redactSecrets('https://ghp_abc123@git.example/x'), 'https://***@git.example/x');
    assert.equal(redactSecrets('https://:only-pass@h.example/'), 'https://:***@h.example/');
    assert.equal(
      redactSecrets('/stream/contents/feed%2Fhttps%3A%2F%2Freader%3As%25cret%40h.example%2Ff'),
      '/stream/contents/feed%2Fhttps%3A%2F%2Freader%3A***%40h.example%2Ff',
    );
    // an @ in a path or a mail address is no credential
    assert.equal(
      redactSecrets('https://h.example/@ann and ann@example.com'),
      'https://h.example/@ann and ann@example.com',
    );
  });

  it('masks query parameters that carry tokens, keys and passwords, keeping the others', () => {
    assert.equal(
      redactSecrets('/microsub?action=events&access_token=abc.def&channel=x'),
      '/microsub?action=events&access_token=***&channel=x',
    );
    assert.equal(
      redactSecrets('/api/fever?api&api_key=0123456789abcdef0123456789abcdef'),
      '/api/fever?api&api_key=***',
    );
    assert.equal(redactSecrets('ClientLogin?Email=ann&Passwd=hunter22'), 'ClientLogin?Email=ann&Passwd=***');
  });

  it('masks Authorization values and JSON fields named like credentials', () => {
    assert.equal(redactSecrets('Authorization: Bearer Zm9vYmFyYmF6cXV4'), 'Authorization: Bearer ***');
    assert.equal(redactSecrets('GoogleLogin auth=0123abcd0123abcd'), 'GoogleLogin auth=***');
    assert.equal(
      redactSecrets(
        '{"headers":{"authorization":"Basic cmVhZGVyOnM=","accept":"*/*"},"password":"a \\"quoted\\" one"}',
      ),
      '{"headers":{"authorization":"***","accept":"*/*"},"password":"***"}',
    );
  });

  it("redacts every line of serve's logger: fields, messages and errors alike", () => {
    let text = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        text += chunk.toString();
        done();
      },
    });
    const log = createLogger('info', sink);
    const err = Object.assign(new Error('fetch: timed out at https://u:topsecret@a.example/f'), {
      url: 'https://u:topsecret@a.example/f',
    });
    log.warn(
      { err, feedUrl: 'https://u:topsecret@a.example/f' },
      'poll: failed for https://u:topsecret@a.example/f',
    );
    log.child({ token: 'topsecret' }).info('child');
    assert.ok(text.length > 0);
    assert.ok(!text.includes('topsecret'), text);
    assert.match(text, /https:\/\/u:\*\*\*@a\.example\/f/);
  });
});
