// Issue 25: `tidings notify add|list|remove|test`, with --user, against a local webhook receiver and a
// local SMTP server. The command lines run in one CLI process (helpers/cli-batch-run.ts).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { verifySignature } from '../src/notify/index.js';
import { type FeedEvent, openStore } from '../src/store/index.js';
import { tidings } from './helpers/cli.js';
import { runAll } from './helpers/cli-batch-run.js';
import { ok, oneLine } from './helpers/cli-results.js';
import { send, startServer, type TestServer } from './helpers/http-server.js';
import { startSmtpServer, type TestSmtpServer } from './helpers/smtp-server.js';
import { addFollowedFeed } from './helpers/temp-store.js';

const PASSWORD = 'a long enough password\n';

describe('tidings notify', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tidings-cli-notify-'));
  let receiver: TestServer;
  let smtp: TestSmtpServer;
  before(async () => {
    receiver = await startServer({
      'POST /hook': (_req, res) => send(res, 204),
      'POST /broken': (_req, res) => send(res, 500, 'down'),
      '/broken.xml': (_req, res) =>
        send(
          res,
          200,
          '<rss version="2.0"><channel><title>T</title>\n<item><title>A & B</title></item></channel></rss>',
          {
            'content-type': 'application/rss+xml',
          },
        ),
    });
    smtp = await startSmtpServer();
  });
  after(async () => {
    await receiver.close();
    await smtp.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('adds, lists, tests and removes destinations, each user their own; mistakes in one line', async () => {
    const env = {
      TIDINGS_DATABASE_URL: `sqlite:${join(dir, 'notify.db')}`,
      TIDINGS_ALLOW_PRIVATE_ADDRESSES: 'true',
      TIDINGS_SMTP_URL: smtp.url,
      TIDINGS_MAIL_FROM: 'tidings@example.org',
    };
    const hook = `${receiver.url}/hook`;
    const cases = [
      { args: ['password', '--user', 'ann'], input: PASSWORD }, // 0
      { args: ['user', 'add', 'bob'], input: PASSWORD }, // 1
      { args: ['notify', 'add', 'webhook', hook, '--user', 'ann'] }, // 2
      {
        args: [
          'notify',
          'add',
          'webhook',
          `${receiver.url}/broken`,
          '--secret',
          'a-long-secret',
          '--events',
          'feed.failing,feed.recovered',
          '--user',
          'ann',
        ],
      }, // 3
      { args: ['notify', 'add', 'email', 'ann@example.org', '--digest', 'daily', '--user', 'ann'] }, // 4
      { args: ['notify', 'add', 'ntfy', 'https://bob:Ntfy5ecret@ntfy.example/alerts', '--user', 'bob'] }, // 5
      { args: ['notify', 'list', '--json', '--user', 'ann'] }, // 6
      { args: ['notify', 'list', '--user', 'bob'] }, // 7
      { args: ['notify', 'test', '1', '--user', 'ann'] }, // 8
      { args: ['notify', 'test', '3', '--user', 'ann'] }, // 9
      { args: ['notify', 'test', '2', '--user', 'ann'] }, // 10: the receiver answers 500
      { args: ['notify', 'test', '1', '--user', 'bob'] }, // 11: ann's, not bob's
      { args: ['notify', 'remove', '1', '--user', 'bob'] }, // 12
      { args: ['notify', 'remove', '4', '--user', 'bob'] }, // 13
      { args: ['notify', 'list', '--json', '--user', 'bob'] }, // 14
      { args: ['notify', 'add', 'pager', 'x', '--user', 'ann'] }, // 15
      { args: ['notify', 'add', 'webhook', 'ftp://example.org/x', '--user', 'ann'] }, // 16
      { args: ['notify', 'add', 'webhook', hook, '--events', 'feed.failing,feed.exploded', '--user', 'ann'] }, // 17
      { args: ['notify', 'add', 'email', 'not-an-address', '--user', 'ann'] }, // 18
      { args: ['notify', 'test', 'first', '--user', 'ann'] }, // 19
      { args: ['notify', 'list'] }, // 20: several users, no --user
      { args: ['notify', 'test', '1', '--user', 'ann'], env: { TIDINGS_ALLOW_PRIVATE_ADDRESSES: 'false' } }, // 21
      { args: ['notify', 'list', '--user', 'ann'] }, // 22
    ].map((one) => ({ ...one, env: { ...env, ...one.env } }));
    const from = receiver.requests.length;
    const results = await runAll(cases);
    ok(results[0]);
    ok(results[1]);
    const added = ok(results[2]);
    assert.match(
      added,
      /^added destination 1 for ann: webhook http:\/\/127\.0\.0\.1:\d+\/hook \(every event\)\n/,
    );
    const secret = /^secret: (\S+)$/m.exec(added)?.[1];
    assert.ok(secret !== undefined && secret.length >= 32, added);
    assert.match(results[2]?.stderr ?? '', /keep this secret now/);
    assert.doesNotMatch(ok(results[3]), /secret/);
    assert.match(
      ok(results[4]),
      /^added destination 3 for ann: email ann@example\.org \(every event, daily digest\)\n$/,
    );
    assert.match(ok(results[5]), /^added destination 4 for bob: ntfy/);

    const listed = JSON.parse(ok(results[6])) as { destinations: Record<string, unknown>[] };
    assert.deepEqual(
      listed.destinations.map((d) => [
        d['id'],
        d['kind'],
        d['events'],
        d['digest'],
        d['signed'],
        d['pending'],
      ]),
      [
        [1, 'webhook', null, null, true, 0],
        [2, 'webhook', ['feed.failing', 'feed.recovered'], null, true, 0],
        [3, 'email', null, 'daily', false, 0],
      ],
    );
    assert.doesNotMatch(results[6]?.stdout ?? '', /a-long-secret/);
    assert.doesNotMatch(results[6]?.stdout ?? '', new RegExp(secret));
    assert.match(
      ok(results[7]),
      /^4 {2}ntfy https:\/\/bob:\*\*\*@ntfy\.example\/alerts \(every event\)\n {4}nothing sent yet; 0 sent, 0 waiting, 0 given up\n$/,
    );
    // the password of a destination's URL is not shown, as a webhook's secret is not
    assert.doesNotMatch(`${results[5]?.stdout}${results[7]?.stdout}`, /Ntfy5ecret/);

    assert.match(ok(results[8]), /^destination 1 \(webhook .*\/hook\) answered: HTTP 204\n$/);
    const test = receiver.requests.slice(from).find((request) => request.path === '/hook');
    assert.ok(test);
    assert.ok(verifySignature(test.body, secret, String(test.headers['x-tidings-signature'])));
    assert.equal((JSON.parse(test.body.toString('utf8')) as { type: string }).type, 'test');

    assert.match(ok(results[9]), /^destination 3 \(email ann@example\.org\) answered: 250 .*accepted/);
    assert.deepEqual(smtp.mails.at(-1)?.to, ['ann@example.org']);
    assert.match(smtp.mails.at(-1)?.text ?? '', /This is a test message from tidings to destination 3/);

    assert.match(
      oneLine(results[10], 1),
      /^tidings: notify test: webhook: 127\.0\.0\.1:\d+ answered HTTP 500: down$/,
    );
    assert.equal(
      oneLine(results[11], 1),
      'tidings: notify test: no destination 1 (tidings notify list shows them)',
    );
    assert.equal(
      oneLine(results[12], 1),
      'tidings: notify remove: no destination 1 (tidings notify list shows them)',
    );
    assert.equal(ok(results[13]), 'removed destination 4\n');
    assert.deepEqual(JSON.parse(ok(results[14])), { destinations: [] });
    assert.match(
      oneLine(results[15], 2),
      /notify add: "pager" is not a kind of destination: use webhook, email or ntfy/,
    );
    assert.match(oneLine(results[16], 2), /a webhook destination is an http or https URL, not "ftp:/);
    assert.match(
      oneLine(results[17], 2),
      /--events takes event types from feed\.failing, .*, not feed\.exploded$/,
    );
    assert.match(oneLine(results[18], 2), /"not-an-address" is not an email address/);
    assert.match(oneLine(results[19], 2), /notify test: "first" is not a destination id/);
    assert.match(
      oneLine(results[20], 2),
      /notify list: this instance has several users: say whose with --user NAME/,
    );
    assert.match(
      oneLine(results[21], 1),
      /notify test: webhook: refused to connect to 127\.0\.0\.1:\d+: 127\.0\.0\.1 is a private or local address/,
    );
    // the failed tests show: destination 2 failing with its last error, 1 failing since the refused test
    const list = ok(results[22]);
    assert.match(
      list,
      /^2 {2}webhook .*\/broken \(feed\.failing, feed\.recovered\)\n {4}FAILING since .*\n {4}last error \(.*\): webhook: 127\.0\.0\.1:\d+ answered HTTP 500: down\n/m,
    );
    assert.match(list, /^1 {2}webhook .*\n {4}FAILING since /m);
  });

  it('sends the alerts of poll --once before it exits', async () => {
    const url = `sqlite:${join(dir, 'poll.db')}`;
    const store = await openStore(url);
    await store.migrate();
    const feed = await addFollowedFeed(store, `${receiver.url}/broken.xml`, new Date().toISOString());
    await store.notify.add(
      { kind: 'webhook', target: `${receiver.url}/hook`, secret: 'poll-secret' },
      new Date().toISOString(),
    );
    await store.close();
    const from = receiver.requests.length;
    const run = await tidings(['poll', '--once'], {
      TIDINGS_DATABASE_URL: url,
      TIDINGS_ALLOW_PRIVATE_ADDRESSES: 'true',
      TIDINGS_FEED_ICONS: 'false',
      TIDINGS_ALERT_AFTER: '1',
      TIDINGS_BASE_URL: 'https://news.example.org/',
    });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /^poll: 1 alert sent$/m);
    const hooks = receiver.requests.slice(from).filter((request) => request.path === '/hook');
    assert.equal(hooks.length, 1);
    const request = hooks[0] as (typeof hooks)[0];
    assert.ok(verifySignature(request.body, 'poll-secret', String(request.headers['x-tidings-signature'])));
    const event = JSON.parse(request.body.toString('utf8')) as FeedEvent;
    assert.deepEqual(
      [event.type, event.failures, event.diagnostic?.line, event.link],
      ['feed.failing', 1, 2, `https://news.example.org/feeds/${feed.id}`],
    );
  });
});
