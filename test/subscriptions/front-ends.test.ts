// The front ends go through src/subscriptions: the same duplicate follow gets the same answer from the
// CLI, the web UI, Microsub and OPML import, and a feed unfollowed through each is not polled any more.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pollOnce } from '../../src/poll/poller.js';
import { hashToken, newToken } from '../../src/store/index.js';
import { feedAsSeen, follow, importOpml } from '../../src/subscriptions/index.js';
import type { BatchResult } from '../helpers/cli-batch.js';
import { runAll } from '../helpers/cli-batch-run.js';
import type { TestServer } from '../helpers/http-server.js';
import { type Client, signedIn, type WebHarness, webHarness } from '../web/harness.js';
import { hits, startSite } from './fixtures.js';

describe('front ends: one answer to a duplicate follow, no polling after unfollow', () => {
  let site: TestServer;
  let h: WebHarness;
  let client: Client;
  let token: string;
  let blogs: { id: number; uid: string };
  const feedUrl = () => `${site.url}/b.xml`;

  const microsub = async (params: Record<string, string>) => {
    const res = await h.app.request('/microsub', {
      method: 'POST',
      body: new URLSearchParams(params),
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  // a poll --once --force run, later than the last one
  const forcedRun = () => {
    h.clock.advance(60_000);
    return pollOnce(h.deps.poll, { force: true });
  };

  before(async () => {
    site = await startSite();
    h = await webHarness();
    client = await signedIn(h.app);
    token = newToken();
    await h.store.accounts.createToken(
      { tokenHash: hashToken(token), scope: 'read follow channels' },
      h.clock.now().toISOString(),
    );
    const followed = await follow(h.deps, { url: feedUrl(), channel: 'Blogs' });
    assert.equal(followed.kind, 'followed');
    if (followed.kind === 'followed') blogs = followed.channel;
  });
  after(async () => {
    await site.close();
    await h.close();
  });

  const subscriptionCount = async () => (await h.store.channels.listSubscriptions()).length;

  it('web UI: says where it is followed and offers to move it; the same channel changes nothing', async () => {
    const elsewhere = await client.post('/subscriptions/follow', { url: feedUrl(), channel: '' });
    assert.equal(elsewhere.status, 200);
    assert.match(elsewhere.text, /You already follow B feed in Blogs\. Nothing changed\./);
    const same = await client.post('/subscriptions/follow', { url: feedUrl(), channel: blogs.uid });
    assert.equal(same.status, 303);
    assert.match(
      (await client.get(same.headers.get('location') ?? '/')).text,
      /already follow B feed in Blogs: nothing changed/,
    );
    const newName = await client.post('/subscriptions/follow', { url: feedUrl(), new_channel: 'Elsewhere' });
    assert.match(newName.text, /Move it to Elsewhere[\s\S]*Follow it in Elsewhere too/);
    assert.equal(await subscriptionCount(), 1);
    assert.equal(
      (await h.store.channels.list()).some((c) => c.name === 'Elsewhere'),
      false,
    );
  });

  it('Microsub: following in the same channel changes nothing (another channel is a real choice there)', async () => {
    const same = await microsub({ action: 'follow', channel: blogs.uid, url: feedUrl() });
    assert.equal(same.status, 200);
    assert.equal(same.body['url'], feedUrl());
    assert.equal(await subscriptionCount(), 1);
  });

  it('OPML import: reports the outline as already followed in Blogs', async () => {
    const result = await importOpml(
      h.deps,
      `<opml version="2.0"><body><outline text="Other"><outline text="B" xmlUrl="${feedUrl()}"/></outline></body></opml>`,
    );
    assert.deepEqual(
      result.skipped.map((s) => [s.line, s.reason]),
      [[1, 'already followed in Blogs']],
    );
    assert.equal(await subscriptionCount(), 1);
  });

  it("web UI: a filter box (GET ?q=) and each feed's settings form go through the module", async () => {
    const a = await follow(h.deps, { url: `${site.url}/a.xml`, channel: 'Blogs' });
    assert.equal(a.kind, 'followed');
    const all = await client.get('/subscriptions');
    assert.match(all.text, /<form method="get" action="\/subscriptions"/);
    const filtered = await client.get('/subscriptions?q=b+feed');
    assert.match(filtered.text, /B feed/);
    assert.doesNotMatch(filtered.text, /a\.xml/);
    assert.match(filtered.text, /1 of 2/);
    assert.match((await client.get('/subscriptions?q=nothing-like-it')).text, /No feed matches/);

    const id = a.kind === 'followed' ? a.feed.id : 0;
    assert.match((await client.get(`/subscriptions/${id}`)).text, /name="interval_minutes"/);
    const form = {
      title: 'Mine',
      url: `${site.url}/a.xml`,
      interval_minutes: '15',
      user_agent: 'UA/1',
      paused: '1',
    };
    assert.equal((await client.post(`/subscriptions/${id}/settings`, form)).status, 303);
    // the title and the pause are the follower's own, the rest the feed's
    const saved = await feedAsSeen(h.store, id, { isAdmin: false });
    assert.deepEqual(
      [saved?.title, saved?.customTitle, saved?.pollIntervalSeconds, saved?.userAgent, saved?.paused],
      ['Mine', 'Mine', 900, 'UA/1', true],
    );
    assert.equal((await h.store.feeds.get(id))?.paused, true, 'its one follower paused it: not polled');
    const bad = await client.post(`/subscriptions/${id}/settings`, { ...form, interval_minutes: '0' });
    assert.equal(bad.status, 400);
    assert.match(bad.text, /between 1 minute and 7 days/);
    const taken = await client.post(`/subscriptions/${id}/settings`, { ...form, url: feedUrl() });
    assert.match(taken.text, /is feed \d+ already/);
    assert.equal((await client.get('/subscriptions/999')).status, 404);
    const gone = await client.post(`/subscriptions/${id}/unfollow`, { channel: blogs.uid });
    assert.equal(gone.status, 303, gone.text);
    assert.equal(await h.store.channels.follows(id), undefined);
  });

  it('web UI and Microsub: a feed unfollowed there is not claimed by a forced run', async () => {
    const b = await h.store.feeds.findByUrl(feedUrl());
    assert.ok(b);
    await client.post(`/subscriptions/${b.id}/unfollow`, { channel: blogs.uid });
    let before = hits(site, '/b.xml');
    await forcedRun();
    assert.equal(hits(site, '/b.xml'), before, 'web unfollow: not polled');
    assert.ok((await h.store.feeds.get(b.id))?.unfollowedAt, 'kept, as unfollowed');
    assert.match(
      // nobody follows it now: it is in the admin's view of every feed, not among their own
      (await client.get('/feeds?all=1')).text,
      /data-status="unfollowed">unfollowed</,
      'health page: unfollowed, not failing',
    );

    assert.equal((await microsub({ action: 'follow', channel: blogs.uid, url: feedUrl() })).status, 200);
    const unfollowed = await microsub({ action: 'unfollow', channel: blogs.uid, url: 'https://example.com' });
    assert.equal(unfollowed.status, 200, 'by its site URL');
    before = hits(site, '/b.xml');
    await forcedRun();
    assert.equal(hits(site, '/b.xml'), before, 'Microsub unfollow: not polled');
  });

  describe('CLI', () => {
    let dir: string;
    let env: Record<string, string>;
    // the command lines run in two CLI processes (helpers/cli-batch-run.ts): one start each, not twelve
    let runs: BatchResult[] = [];
    let hitsBeforePoll = 0;
    const run = (index: number): BatchResult => {
      const found = runs[index];
      assert.ok(found, `no run ${index}`);
      return found;
    };
    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'tidings-subs-'));
      env = { TIDINGS_DATABASE_URL: `sqlite:${join(dir, 't.db')}`, TIDINGS_ALLOW_PRIVATE_ADDRESSES: 'true' };
      const file = join(dir, 'dup.opml');
      writeFileSync(
        file,
        `<opml version="2.0"><body><outline text="B" xmlUrl="${feedUrl()}"/></body></opml>`,
      );
      const cases = (lines: string[][]) => lines.map((args) => ({ args, env }));
      runs = await runAll(
        cases([
          ['add', feedUrl(), '--channel', 'Blogs'], // 0
          ['add', feedUrl(), '--channel', 'Blogs'], // 1
          ['add', feedUrl()], // 2
          ['import', file], // 3
          ['export'], // 4
          ['remove', feedUrl()], // 5
        ]),
      );
      hitsBeforePoll = hits(site, '/b.xml');
      runs.push(
        ...(await runAll(
          cases([
            ['poll', '--once', '--force'], // 6
            ['status'], // 7
            ['feed', '1', '--title', 'Mine', '--interval', '15m', '--pause'], // 8
            ['feed', '1', '--interval', 'soon'], // 9
            ['feed', '99'], // 10
            ['feed', '1', '--move-to', 'Later'], // 11
          ]),
        )),
      );
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('add: the same answers, exit 0 without change; remove: not polled, even forced', () => {
      assert.equal(run(0).code, 0, run(0).stderr);
      assert.equal(run(1).code, 0);
      assert.match(run(1).stdout, /is already followed in Blogs; nothing changed/);
      assert.equal(run(2).code, 0);
      assert.match(
        run(2).stdout,
        /already followed in Blogs; nothing changed\. Use --channel NAME --also .*--move-to NAME/,
      );
      assert.equal(run(3).code, 0);
      assert.match(run(3).stderr, /line 1: .*already followed in Blogs/);
      assert.match(run(4).stdout, /<outline text="Blogs"[^\n]*>\n\s+<outline type="rss"[^\n]*b\.xml/);

      assert.equal(run(5).code, 0, run(5).stderr);
      assert.match(run(5).stdout, /unfollowed feed 1 .* in Blogs; no channel follows it now/);
      assert.equal(run(6).code, 0, run(6).stderr);
      assert.match(run(6).stdout, /polled 0 feeds/);
      assert.equal(hits(site, '/b.xml'), hitsBeforePoll);
      assert.match(run(7).stdout, /unfollowed .* not polled: no channel follows it since \d{4}-/);
    });

    it('feed: shows and changes the settings; mistakes get one line and exit 2 or 1', () => {
      const shown = run(8);
      assert.equal(shown.code, 0, shown.stderr);
      assert.match(shown.stdout, /title:\s+Mine \(yours\)/);
      assert.match(shown.stdout, /interval:\s+15 min/);
      assert.match(shown.stdout, /paused:\s+yes/);
      const bad = run(9);
      // a value the command line cannot use: exit 2, as --port abc
      assert.deepEqual([bad.code, bad.stderr.trim().split('\n').length], [2, 1]);
      assert.match(bad.stderr, /cannot read the interval "soon"/);
      assert.equal(run(10).code, 1);
      const moved = run(11);
      assert.equal(moved.code, 1, 'an unfollowed feed has no channel to move from');
      assert.equal(moved.stderr, 'tidings: move: no channel follows feed 1\n');
    });
  });
});
