// Feed-health alerts end to end (issue 25), on both databases: real polls of a local feed server, the
// alerts they queue in their own transaction, and the sender delivering them to a local webhook receiver.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { silentLogger } from '../../src/log.js';
import { OutboxSender, smtpMailer, verifySignature } from '../../src/notify/index.js';
import { parseFeed } from '../../src/parse/index.js';
import { pollOnce } from '../../src/poll/poller.js';
import type { FeedEvent, Store } from '../../src/store/index.js';
import { send, startServer, type TestServer } from '../helpers/http-server.js';
import { pollDeps, rss, testClock } from '../helpers/poll-harness.js';
import { decodeWords, startSmtpServer, type TestSmtpServer } from '../helpers/smtp-server.js';
import { addFollowedFeed, type StoreBackend, storeBackends } from '../helpers/temp-store.js';
import { testSender } from '../helpers/test-sender.js';

const GOOD = rss([{ guid: 'a', title: 'First' }]);
// a bare & on the third line: not well-formed
const BROKEN =
  '<?xml version="1.0" encoding="utf-8"?>\n<rss version="2.0"><channel><title>Test feed</title>\n<item><guid>a</guid><title>Fish & chips</title></item>\n</channel></rss>\n';
const SECRET = 'hook-secret';
const BASE_URL = 'https://news.example.org';

function alertSuite(backend: StoreBackend) {
  let feeds: TestServer;
  let receiver: TestServer;
  let smtp: TestSmtpServer;
  /** What /feed.xml serves now. */
  let document = GOOD;
  const etagged = { broken: true };

  before(async () => {
    feeds = await startServer({
      '/feed.xml': (_req, res) => send(res, 200, document, { 'content-type': 'application/rss+xml' }),
      // a broken document behind an ETag: every poll after the first is a 304
      '/etag.xml': (req, res) => {
        if (req.headers['if-none-match'] === '"b1"' && etagged.broken)
          return send(res, 304, '', { etag: '"b1"' });
        send(res, 200, etagged.broken ? BROKEN : GOOD, {
          'content-type': 'application/rss+xml',
          etag: etagged.broken ? '"b1"' : '"g1"',
        });
      },
      '/gone.xml': (_req, res) => send(res, 410, 'gone'),
      '/old.xml': (_req, res) => send(res, 301, '', { location: '/new.xml' }),
      '/new.xml': (_req, res) => send(res, 200, GOOD, { 'content-type': 'application/rss+xml' }),
    });
    receiver = await startServer({ 'POST /hook': (_req, res) => send(res, 204) });
    smtp = await startSmtpServer();
  });
  after(async () => {
    await smtp.close();
    await feeds.close();
    await receiver.close();
    await backend.cleanup();
  });

  /** A store whose user follows the feed at `path` and has a signed webhook to the receiver. */
  async function setUp(path: string) {
    const store = await backend.open();
    const clock = testClock();
    const feed = await addFollowedFeed(store, `${feeds.url}${path}`, clock.now().toISOString());
    await store.notify.add(
      { kind: 'webhook', target: `${receiver.url}/hook`, secret: SECRET },
      clock.now().toISOString(),
    );
    const deps = pollDeps(store, clock, { config: { alertAfter: 3, baseUrl: BASE_URL } });
    const poll = async () => {
      clock.advance(60_000);
      await pollOnce(deps, { feedIds: [feed.id], force: true });
    };
    return { store, clock, feed, poll };
  }

  const sender = (store: Store, clock: ReturnType<typeof testClock>, workerId = 'sender') =>
    testSender(store, clock, workerId);

  /** The events the receiver took since request `from`, each checked against its signature. */
  function delivered(from: number): FeedEvent[] {
    return receiver.requests.slice(from).map((request) => {
      assert.ok(verifySignature(request.body, SECRET, String(request.headers['x-tidings-signature'])));
      return JSON.parse(request.body.toString('utf8')) as FeedEvent;
    });
  }

  it('sends one feed.failing with line and column after 3 broken polls, then one feed.recovered', async () => {
    const { store, clock, feed, poll } = await setUp('/feed.xml');
    const out = sender(store, clock);
    const from = receiver.requests.length;
    document = GOOD;
    await poll();
    document = BROKEN;
    const firstFailure = new Date(clock.now().getTime() + 60_000).toISOString();
    for (let n = 0; n < 6; n++) {
      await poll();
      await out.sendDue();
    }
    document = GOOD;
    for (let n = 0; n < 3; n++) {
      await poll();
      await out.sendDue();
    }
    const events = delivered(from);
    assert.deepEqual(
      events.map((event) => event.type),
      ['feed.failing', 'feed.recovered'],
    );
    const [failing, recovered] = events as [FeedEvent, FeedEvent];
    // line and column as `tidings parse` gives them
    const parsed = parseFeed(BROKEN, { excerpts: true }).diagnostics.find(
      (d) => d.code === failing.diagnostic?.code,
    );
    assert.ok(parsed);
    assert.equal(failing.diagnostic?.line, 3);
    assert.deepEqual(failing.diagnostic, {
      code: parsed.code,
      line: parsed.line,
      column: parsed.column,
      excerpt: '<item><guid>a</guid><title>Fish & chips</title></item>',
    });
    assert.deepEqual(
      { ...failing, diagnostic: undefined, message: undefined },
      {
        type: 'feed.failing',
        at: failing.at,
        feed: {
          id: feed.id,
          url: `${feeds.url}/feed.xml`,
          title: 'Test feed',
          siteUrl: 'https://example.com/',
        },
        status: 'parse_error',
        since: firstFailure,
        failures: 3,
        diagnostic: undefined,
        message: undefined,
        link: `${BASE_URL}/feeds/${feed.id}`,
      },
    );
    assert.match(failing.message, /line 3/);
    assert.equal(recovered.since, firstFailure);
    assert.equal(recovered.failures, 6);
    assert.equal(recovered.status, 'ok');
  });

  it('counts 304s of a broken document as failures', async () => {
    const { store, clock, poll } = await setUp('/etag.xml');
    etagged.broken = true;
    const from = receiver.requests.length;
    for (let n = 0; n < 4; n++) await poll();
    etagged.broken = false;
    await poll();
    await sender(store, clock).sendDue();
    assert.deepEqual(
      delivered(from).map((event) => [event.type, event.failures]),
      [
        ['feed.failing', 3],
        ['feed.recovered', 4],
      ],
    );
  });

  it('sends feed.gone once, and feed.moved once the move held', async () => {
    const gone = await setUp('/gone.xml');
    let from = receiver.requests.length;
    await gone.poll();
    await gone.poll();
    await sender(gone.store, gone.clock).sendDue();
    assert.deepEqual(
      delivered(from).map((event) => [event.type, event.status]),
      [['feed.gone', 'gone']],
    );
    const moved = await setUp('/old.xml');
    from = receiver.requests.length;
    for (let n = 0; n < 3; n++) await moved.poll();
    await sender(moved.store, moved.clock).sendDue();
    assert.deepEqual(
      delivered(from).map((event) => [event.type, event.feed.url, event.newUrl]),
      [['feed.moved', `${feeds.url}/old.xml`, `${feeds.url}/new.xml`]],
    );
  });

  it('sends feed.silent once when a working feed goes quiet by the health page rule', async () => {
    const { store, clock, feed, poll } = await setUp('/feed.xml');
    document = GOOD;
    await poll();
    // it used to post hourly; three quiet days are well past four cadences and two days
    await store.feeds.update(feed.id, { cadenceSeconds: 3600 });
    const from = receiver.requests.length;
    clock.advance(3 * 24 * 3600_000);
    await poll();
    await poll();
    await sender(store, clock).sendDue();
    const events = delivered(from);
    assert.deepEqual(
      events.map((event) => [event.type, event.status, event.failures]),
      [['feed.silent', 'ok', 0]],
    );
    assert.match(events[0]?.message ?? '', /^no new entry for 3 days; it usually posts every 1 hour$/);
  });

  it('emails feed.failing in words, and a daily digest of what is still broken', async () => {
    const { store, clock, feed, poll } = await setUp('/feed.xml');
    await store.notify.add(
      { kind: 'email', target: 'ann@example.org', digest: 'daily' },
      clock.now().toISOString(),
    );
    const mailer = smtpMailer(smtp.url, 'tidings@example.org', 2_000);
    const out = new OutboxSender({
      store,
      config: { allowPrivateAddresses: true, baseUrl: BASE_URL },
      log: silentLogger,
      now: clock.now,
      workerId: 'mail-sender',
      mailer,
    });
    const from = smtp.mails.length;
    try {
      document = BROKEN;
      for (let n = 0; n < 3; n++) await poll();
      await out.sendDue();
      clock.advance(24 * 3600_000);
      await out.sendDue();
    } finally {
      document = GOOD;
      mailer.close();
    }
    const mails = smtp.mails.slice(from);
    assert.deepEqual(
      mails.map((mail) => decodeWords(mail.headers['subject'] ?? '')),
      ['Feed failing: Test feed', 'tidings: 1 feed still broken'],
    );
    assert.match(
      mails[0]?.text ?? '',
      /line 3, column \d+ \(xml\.not-well-formed\):\n {2}<item><guid>a<\/guid><title>Fish & chips<\/title><\/item>\n {2} +\^\n/,
    );
    assert.match(
      mails[1]?.text ?? '',
      /^One feed you follow is still broken:\n\n- Test feed: parse_error since .* UTC, 3 failed polls\n {2}xml: .*\n {2}https:\/\/news\.example\.org\/feeds\/\d+\n$/,
    );
    assert.ok(mails[1]?.text.includes(`/feeds/${feed.id}`));
  });

  it('sends an alert stored before a crash once, from the process that starts next', async () => {
    const { store, clock, poll } = await setUp('/feed.xml');
    document = BROKEN;
    // the process polls and dies before its sender runs: the alert was stored with the poll
    for (let n = 0; n < 3; n++) await poll();
    document = GOOD;
    assert.equal((await store.notify.messages()).filter((m) => m.sentAt === undefined).length, 1);
    const from = receiver.requests.length;
    const restarted = await backend.openPeer(store);
    assert.deepEqual(await sender(restarted, clock, 'restarted').sendDue(), { sent: 1, failed: 0 });
    assert.deepEqual(await sender(restarted, clock, 'restarted').sendDue(), { sent: 0, failed: 0 });
    assert.deepEqual(await sender(store, clock, 'another').sendDue(), { sent: 0, failed: 0 });
    assert.deepEqual(
      delivered(from).map((event) => event.type),
      ['feed.failing'],
    );
  });

  it('sends a message whose sender died after claiming it once its claim lapses', async () => {
    const { store, clock, poll } = await setUp('/gone.xml');
    await poll();
    // the sender claimed the message and died before sending it
    const claimed = await store.notify.claimDue({
      now: clock.now().toISOString(),
      workerId: 'dead',
      leaseMs: 60_000,
      limit: 5,
    });
    assert.equal(claimed.length, 1);
    const from = receiver.requests.length;
    const restarted = await backend.openPeer(store);
    assert.deepEqual(await sender(restarted, clock, 'restarted').sendDue(), { sent: 0, failed: 0 });
    clock.advance(60_000);
    assert.deepEqual(await sender(restarted, clock, 'restarted').sendDue(), { sent: 1, failed: 0 });
    assert.deepEqual(
      delivered(from).map((event) => event.type),
      ['feed.gone'],
    );
  });
}

for (const backend of storeBackends()) {
  if (backend.skip !== undefined) it(backend.name, { skip: backend.skip }, () => {});
  else describe(`feed-health alerts (${backend.name})`, () => alertSuite(backend));
}
