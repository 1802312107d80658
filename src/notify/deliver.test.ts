import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { send, startServer, type TestServer } from '../../test/helpers/http-server.js';
import { decodeWords, startSmtpServer, type TestSmtpServer } from '../../test/helpers/smtp-server.js';
import type { FeedEvent, StoredDestination } from '../store/index.js';
import { retryTime } from './backoff.js';
import { type DeliveryContext, deliver, headerText } from './deliver.js';
import { smtpMailer } from './mail.js';
import { signBody, verifySignature } from './sign.js';
import { diagnosticLines, eventWords } from './words.js';

const FAILING: FeedEvent = {
  type: 'feed.failing',
  at: '2026-03-01T12:30:00.000Z',
  feed: { id: 7, url: 'https://example.org/feed.xml', title: 'Café news', siteUrl: 'https://example.org/' },
  status: 'parse_error',
  since: '2026-03-01T12:00:00.000Z',
  failures: 3,
  message: 'xml: unclosed tag <item> (line 12:9)',
  diagnostic: { code: 'xml.not-well-formed', line: 12, column: 9, excerpt: '\t<item><title>Broken' },
  link: 'https://news.example.org/feeds/7',
};

function destination(kind: StoredDestination['kind'], target: string, secret?: string): StoredDestination {
  return { id: 1, userId: 1, kind, target, ...(secret ? { secret } : {}), createdAt: FAILING.at };
}

describe('deliver', () => {
  let receiver: TestServer;
  let status = 204;
  const open: DeliveryContext = { allowPrivateAddresses: true, timeoutMs: 2_000 };

  before(async () => {
    receiver = await startServer({
      'POST /hook': (_req, res) => send(res, status, status === 204 ? '' : 'try later\n  please'),
      'POST /topic': (_req, res) => send(res, 200, '{"id":"x"}'),
    });
  });
  after(() => receiver.close());

  it('POSTs the JSON as it is, signed with the secret, and names the event and the delivery', async () => {
    const payload = JSON.stringify(FAILING);
    const answer = await deliver(destination('webhook', `${receiver.url}/hook`, 's3cret'), payload, open, 42);
    assert.deepEqual(answer, { answer: 'HTTP 204' });
    const request = receiver.requests.at(-1);
    assert.ok(request);
    assert.equal(request.body.toString('utf8'), payload);
    assert.equal(request.headers['content-type'], 'application/json');
    assert.equal(request.headers['x-tidings-event'], 'feed.failing');
    assert.equal(request.headers['x-tidings-delivery'], '42');
    const signature = request.headers['x-tidings-signature'];
    assert.equal(typeof signature, 'string');
    // the receiver's check: HMAC-SHA256 of the raw bytes it got, with the secret
    assert.equal(verifySignature(request.body, 's3cret', signature as string), true);
    assert.equal(verifySignature(request.body, 'other', signature as string), false);
    assert.match(signature as string, /^sha256=[0-9a-f]{64}$/);
    assert.equal(signBody(payload, 's3cret'), signature);
  });

  it('reports a refusing receiver with its status and the start of its answer', async () => {
    status = 503;
    try {
      await assert.rejects(
        deliver(destination('webhook', `${receiver.url}/hook`), '{"type":"test"}', open),
        /^DeliveryError: webhook: 127\.0\.0\.1:\d+ answered HTTP 503: try later please$/,
      );
    } finally {
      status = 204;
    }
  });

  it('refuses private and local addresses unless they are allowed, as feed fetches do', async () => {
    const guarded: DeliveryContext = { allowPrivateAddresses: false, timeoutMs: 2_000 };
    const before = receiver.requests.length;
    await assert.rejects(
      deliver(destination('webhook', `${receiver.url}/hook`), '{"type":"test"}', guarded),
      /webhook: refused to connect to 127\.0\.0\.1:\d+: 127\.0\.0\.1 is a private or local address/,
    );
    // a name that resolves to loopback is refused at connect time
    await assert.rejects(
      deliver(destination('ntfy', `http://localhost:${receiver.port}/topic`), '{"type":"test"}', guarded),
      /ntfy: refused to connect to localhost(:\d+)?: .* is a private or local address/,
    );
    await assert.rejects(
      deliver(destination('webhook', 'file:///etc/passwd'), '{"type":"test"}', guarded),
      /webhook: /,
    );
    assert.equal(receiver.requests.length, before);
  });

  it('posts ntfy the event in words, with a title, tags and a link', async () => {
    const answer = await deliver(destination('ntfy', `${receiver.url}/topic`), JSON.stringify(FAILING), open);
    assert.deepEqual(answer, { answer: 'HTTP 200' });
    const request = receiver.requests.at(-1);
    assert.ok(request);
    assert.equal(decodeWords(String(request.headers['title'])), 'Feed failing: Café news');
    assert.equal(request.headers['tags'], 'warning');
    assert.equal(request.headers['click'], 'https://news.example.org/feeds/7');
    const text = request.body.toString('utf8');
    assert.match(text, /Café news has failed 3 polls in a row, since 2026-03-01 12:00 UTC\./);
    assert.match(
      text,
      /line 12, column 9 \(xml\.not-well-formed\):\n {2}\t<item><title>Broken\n {2}\t {7}\^\n/,
    );
  });

  it('sends user:password of an ntfy or webhook URL as Basic credentials, not in the URL', async () => {
    const url = (path: string) => `http://n%40user:Pa55%3Aword@127.0.0.1:${receiver.port}${path}`;
    await deliver(destination('ntfy', url('/topic')), JSON.stringify(FAILING), open);
    const ntfy = receiver.requests.at(-1);
    assert.equal(ntfy?.path, '/topic');
    assert.equal(
      ntfy?.headers['authorization'],
      `Basic ${Buffer.from('n@user:Pa55:word').toString('base64')}`,
    );
    await deliver(destination('webhook', url('/hook')), '{"type":"test"}', open);
    const hook = receiver.requests.at(-1);
    assert.equal(hook?.path, '/hook');
    assert.equal(hook?.headers['authorization'], ntfy?.headers['authorization']);
    // a URL without them sends none
    await deliver(destination('webhook', `${receiver.url}/hook`), '{"type":"test"}', open);
    assert.equal(receiver.requests.at(-1)?.headers['authorization'], undefined);
  });

  describe('email', () => {
    let smtp: TestSmtpServer;
    before(async () => {
      smtp = await startSmtpServer();
    });
    after(() => smtp.close());

    it('sends the event in words through the SMTP server, logged in', async () => {
      const mailer = smtpMailer(smtp.url, 'tidings@example.org', 2_000);
      try {
        const answer = await deliver(destination('email', 'ann@example.org'), JSON.stringify(FAILING), {
          ...open,
          mailer,
        });
        assert.match(answer.answer, /^250 .*Message accepted by the test server/);
      } finally {
        mailer.close();
      }
      const mail = smtp.mails.at(-1);
      assert.ok(mail);
      assert.deepEqual(
        [mail.from, mail.to, smtp.logins],
        ['tidings@example.org', ['ann@example.org'], ['user']],
      );
      assert.equal(decodeWords(mail.headers['subject'] ?? ''), 'Feed failing: Café news');
      assert.match(mail.text, /parse_error: xml: unclosed tag <item> \(line 12:9\)/);
      assert.match(mail.text, /\t<item><title>Broken\n {2}\t {7}\^/);
      assert.match(mail.text, /Details: https:\/\/news\.example\.org\/feeds\/7/);
    });

    it('fails in one line when no mail server is configured or it cannot be reached', async () => {
      await assert.rejects(
        deliver(destination('email', 'ann@example.org'), '{"type":"test","message":"hi"}', open),
        /^DeliveryError: email: TIDINGS_SMTP_URL is not set/,
      );
      const mailer = smtpMailer('smtp://127.0.0.1:1', 'tidings@example.org', 2_000);
      try {
        await assert.rejects(
          deliver(destination('email', 'ann@example.org'), '{"type":"test","message":"hi"}', {
            ...open,
            mailer,
          }),
          /^DeliveryError: email: .*ECONNREFUSED/,
        );
      } finally {
        mailer.close();
      }
    });
  });
});

describe('eventWords', () => {
  it('says a rule match in words, with the entry as the link', () => {
    const words = eventWords(
      JSON.stringify({
        type: 'entry.matched',
        at: '2026-03-01T12:00:00.000Z',
        rule: { id: 3, query: '"launch day"', action: 'notify' },
        entry: {
          id: 9,
          title: 'Launch day',
          url: 'https://example.org/launch',
          published: null,
          feed: { id: 1, url: 'https://example.org/feed.xml', title: 'Café news', siteUrl: null },
        },
      }),
    );
    assert.equal(words.title, 'tidings: Launch day');
    assert.equal(
      words.text,
      'Launch day\n\nfrom Café news\nmatched your rule "\\"launch day\\""\n\nhttps://example.org/launch\n',
    );
    assert.equal(words.link, 'https://example.org/launch');
  });

  it('says each feed event in words', () => {
    const recovered = eventWords(
      JSON.stringify({ ...FAILING, type: 'feed.recovered', failures: 4, message: '3 entries (rss20)' }),
    );
    assert.equal(recovered.title, 'Feed recovered: Café news');
    assert.match(
      recovered.text,
      /works again, after 4 failed polls since 2026-03-01 12:00 UTC\.\n\n3 entries \(rss20\)/,
    );
    const moved = eventWords(
      JSON.stringify({
        ...FAILING,
        type: 'feed.moved',
        newUrl: 'https://example.net/feed.xml',
        feed: { ...FAILING.feed, title: null },
      }),
    );
    assert.equal(moved.title, 'Feed moved: https://example.org/feed.xml');
    assert.match(
      moved.text,
      /old: https:\/\/example\.org\/feed\.xml\nnew: https:\/\/example\.net\/feed\.xml/,
    );
    assert.equal(eventWords(JSON.stringify({ ...FAILING, type: 'feed.gone' })).tags[0], 'x');
    const silent = eventWords(
      JSON.stringify({
        ...FAILING,
        type: 'feed.silent',
        message: 'no new entry for 9 days; it usually posts every 1 day',
      }),
    );
    assert.equal(silent.title, 'Feed silent: Café news');
    assert.match(
      silent.text,
      /^Café news still answers, but no new entry for 9 days; it usually posts every 1 day\.\n/,
    );
  });

  it('puts the caret under the column of a cut excerpt', () => {
    assert.deepEqual(
      diagnosticLines({ code: 'xml.bad', line: 1, column: 5000, excerpt: 'abc<def', excerptColumn: 4 }),
      ['', 'line 1, column 5000 (xml.bad):', '  abc<def', '     ^'],
    );
    assert.deepEqual(diagnosticLines({ code: 'encoding.mismatch' }), ['', '(encoding.mismatch):']);
  });

  it('encodes header text beyond ASCII as an RFC 2047 word', () => {
    assert.equal(headerText('Feed failing: plain'), 'Feed failing: plain');
    assert.equal(decodeWords(headerText('Café\nnews')), 'Café news');
  });
});

describe('retryTime', () => {
  it('retries within 10 s, then later and later, and gives up a day after the message was queued', () => {
    const queued = '2026-03-01T00:00:00.000Z';
    let now = new Date(queued);
    const waits: number[] = [];
    for (let attempts = 1; ; attempts++) {
      const next = retryTime(queued, attempts, now);
      if (next === undefined) break;
      waits.push((Date.parse(next) - now.getTime()) / 1000);
      now = new Date(next);
    }
    assert.deepEqual(waits.slice(0, 6), [10, 60, 300, 1800, 7200, 14400]);
    assert.ok(now.getTime() - Date.parse(queued) <= 24 * 3600_000);
    assert.ok(now.getTime() - Date.parse(queued) > 20 * 3600_000);
  });
});
