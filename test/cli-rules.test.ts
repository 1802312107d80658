// Issue 25: `tidings rule add|list|remove`, with --user, and what rules do to the entries a real
// `poll --once` stores: read, save, hide, and entry.matched to a local webhook receiver and the
// Microsub notifications channel. The command lines of the first test run in one CLI process
// (helpers/cli-batch-run.ts).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { verifySignature } from '../src/notify/index.js';
import { type EntryMatchedEvent, NOTIFICATIONS_UID, openStore } from '../src/store/index.js';
import { tidings } from './helpers/cli.js';
import { runAll } from './helpers/cli-batch-run.js';
import { ok, oneLine } from './helpers/cli-results.js';
import { send, startServer, type TestServer } from './helpers/http-server.js';
import { addFollowedFeed } from './helpers/temp-store.js';

const PASSWORD = 'a long enough password\n';

const FEED = `<?xml version="1.0"?>
<rss version="2.0"><channel><title>News</title><link>https://news.example/</link>
<item><title>Launch day for the new rocket</title><link>https://news.example/launch</link><guid>launch</guid><pubDate>Mon, 30 Nov 2026 10:00:00 GMT</pubDate></item>
<item><title>Cheap pills spam</title><link>https://news.example/spam</link><guid>spam</guid></item>
<item><title>Keep this recipe</title><link>https://news.example/keep</link><guid>keep</guid></item>
<item><title>Boring minutes of the meeting</title><link>https://news.example/boring</link><guid>boring</guid></item>
<item><title>An ordinary post</title><link>https://news.example/plain</link><guid>plain</guid></item>
</channel></rss>`;

describe('tidings rule', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tidings-cli-rule-'));
  let server: TestServer;
  before(async () => {
    server = await startServer({
      '/feed.xml': (_req, res) => send(res, 200, FEED, { 'content-type': 'application/rss+xml' }),
      'POST /hook': (_req, res) => send(res, 204),
    });
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('adds, lists and removes rules, each user their own; mistakes in one line', async () => {
    const url = `sqlite:${join(dir, 'rules.db')}`;
    const env = { TIDINGS_DATABASE_URL: url };
    const cases = [
      { args: ['password', '--user', 'ann'], input: PASSWORD }, // 0
      { args: ['user', 'add', 'bob'], input: PASSWORD }, // 1
      { args: ['rule', 'add', '--query', '"red hat" -linux', '--action', 'read', '--user', 'ann'] }, // 2
      { args: ['rule', 'add', '--query', 'kubernetes', '--action', 'notify', '--user', 'bob'] }, // 3
      { args: ['rule', 'list', '--json', '--user', 'ann'] }, // 4
      { args: ['rule', 'list', '--user', 'bob'] }, // 5
      { args: ['rule', 'remove', '1', '--user', 'bob'] }, // 6: ann's
      { args: ['rule', 'add', '--query', 'x', '--action', 'explode', '--user', 'ann'] }, // 7
      { args: ['rule', 'add', '--query', ' -- "" ', '--action', 'read', '--user', 'ann'] }, // 8
      { args: ['rule', 'add', '--query', 'x', '--action', 'read', '--channel', 'Nope', '--user', 'ann'] }, // 9
      {
        args: [
          'rule',
          'add',
          '--query',
          'x',
          '--action',
          'read',
          '--feed',
          'https://nowhere.example/',
          '--user',
          'ann',
        ],
      }, // 10
      { args: ['rule', 'add', '--action', 'read', '--user', 'ann'] }, // 11: no --query
      { args: ['rule', 'remove', 'first', '--user', 'ann'] }, // 12
      { args: ['rule', 'list'] }, // 13: several users, no --user
      { args: ['rule', 'remove', '1', '--user', 'ann'] }, // 14
      { args: ['rule', 'list', '--json', '--user', 'ann'] }, // 15
    ].map((one) => ({ ...one, env }));
    const results = await runAll(cases);
    ok(results[0]);
    ok(results[1]);
    assert.equal(ok(results[2]), 'added rule 1: read "\\"red hat\\" -linux" in every channel\n');
    assert.match(ok(results[3]), /^added rule 2: notify "kubernetes" in every channel\n$/);
    const listed = JSON.parse(ok(results[4])) as { rules: Record<string, unknown>[] };
    assert.deepEqual(
      listed.rules.map(({ createdAt, ...rest }) => {
        assert.match(String(createdAt), /^\d{4}-\d\d-\d\dT/);
        return rest;
      }),
      [{ id: 1, query: '"red hat" -linux', action: 'read', channel: null, feed: null }],
    );
    assert.match(
      ok(results[5]),
      /^id {2}action {2}query {7}channel {2}feed {3}created\n2 {3}notify {2}kubernetes {2}\(all\)/,
    );
    assert.match(oneLine(results[6], 1), /^tidings: rule remove: no rule 1 /);
    assert.match(oneLine(results[7], 2), /unknown action "explode": use one of read, save, hide, notify/);
    assert.match(oneLine(results[8], 2), /needs at least one word/);
    // what does not exist exits 1, as a feed that is none (line 10); a request that is no rule, 2
    assert.match(oneLine(results[9], 1), /there is no channel "Nope"/);
    assert.match(oneLine(results[10], 1), /^tidings: rule add: no feed https:\/\/nowhere\.example\//);
    assert.match(oneLine(results[11], 2), /--query/);
    assert.match(oneLine(results[12], 2), /"first" is not a rule id/);
    assert.match(oneLine(results[13], 2), /--user/);
    assert.equal(ok(results[14]), 'removed rule 1\n');
    assert.deepEqual(JSON.parse(ok(results[15])), { rules: [] });
  });

  it('acts on what poll --once stores: read, save, hide, and entry.matched signed to the webhook', async () => {
    const url = `sqlite:${join(dir, 'poll.db')}`;
    const store = await openStore(url);
    await store.migrate();
    const feed = await addFollowedFeed(store, `${server.url}/feed.xml`, new Date().toISOString());
    await store.notify.add(
      { kind: 'webhook', target: `${server.url}/hook`, secret: 'rule-secret' },
      new Date().toISOString(),
    );
    await store.close();
    const env = { TIDINGS_DATABASE_URL: url };
    const results = await runAll(
      [
        ['--query', '"launch day"', '--action', 'notify', '--feed', String(feed.id)],
        ['--query', 'spam', '--action', 'hide', '--channel', 'Test'],
        ['--query', 'keep', '--action', 'save'],
        ['--query', 'boring -exciting', '--action', 'read'],
      ].map((args) => ({ args: ['rule', 'add', ...args], env })),
    );
    for (const result of results) ok(result);
    const from = server.requests.length;
    const run = await tidings(['poll', '--once'], {
      ...env,
      TIDINGS_ALLOW_PRIVATE_ADDRESSES: 'true',
      TIDINGS_FEED_ICONS: 'false',
    });
    assert.equal(run.code, 0, run.stderr);
    const hooks = server.requests.slice(from).filter((request) => request.path === '/hook');
    assert.equal(hooks.length, 1);
    const request = hooks[0] as (typeof hooks)[0];
    assert.ok(verifySignature(request.body, 'rule-secret', String(request.headers['x-tidings-signature'])));
    const event = JSON.parse(request.body.toString('utf8')) as EntryMatchedEvent;
    assert.equal(event.type, 'entry.matched');
    assert.deepEqual(event.rule, { id: 1, query: '"launch day"', action: 'notify' });
    assert.deepEqual(
      [
        event.entry.title,
        event.entry.url,
        event.entry.published,
        event.entry.feed.id,
        event.entry.feed.title,
      ],
      [
        'Launch day for the new rocket',
        'https://news.example/launch',
        '2026-11-30T10:00:00.000Z',
        feed.id,
        'News',
      ],
    );

    const after = await openStore(url);
    try {
      const test = (await after.channels.list()).find((c) => c.name === 'Test');
      const notifications = (await after.channels.list()).find((c) => c.uid === NOTIFICATIONS_UID);
      assert.ok(test && notifications);
      const page = await after.reading.timeline({ channelId: test.id, limit: 50 });
      const shown = Object.fromEntries(page.entries.map((e) => [e.guid, e.isRead]));
      assert.deepEqual(shown, { launch: false, keep: false, boring: true, plain: false });
      const saved = await after.reading.savedEntries({ limit: 10 });
      assert.deepEqual(
        saved.entries.map((e) => e.guid),
        ['keep'],
      );
      const notified = await after.reading.timeline({ channelId: notifications.id, limit: 50 });
      assert.deepEqual(
        notified.entries.map((e) => e.guid),
        ['launch'],
      );
      const counts = await after.reading.unreadCounts();
      assert.equal(counts.find((c) => c.channelId === test.id)?.unread, 3);
      assert.equal(counts.find((c) => c.channelId === notifications.id)?.unread, 1);
    } finally {
      await after.close();
    }
    const doctor = await tidings(['doctor'], env);
    assert.equal(doctor.code, 0, doctor.stdout + doctor.stderr);
  });
});
