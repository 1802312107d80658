import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Channel } from '../../src/model/stored.js';
import type { TestServer } from '../helpers/http-server.js';
import { startFixtures } from './fixtures.js';
import { type Client, signedIn, type WebHarness, webHarness } from './harness.js';

// Saved (starred) entries in the web UI (issue 16): the Save button, /saved and its entry pages.
describe('web: saved entries', () => {
  let h: WebHarness;
  let server: TestServer & { feedUrl: string };
  let client: Client;
  let channel: Channel;
  let ids: number[];

  const hrefs = (text: string, pattern: RegExp) =>
    [...text.matchAll(pattern)].map((m) => (m[1] ?? '').replaceAll('&amp;', '&'));
  const savedIds = async () => (await h.store.reading.savedEntries({ limit: 100 })).entries.map((e) => e.id);

  before(async () => {
    h = await webHarness();
    server = await startFixtures();
    client = await signedIn(h.app);
    await client.post('/subscriptions/follow', { url: server.feedUrl, channel: '', new_channel: 'News' });
    channel = (await h.store.channels.list()).find((ch) => ch.name === 'News') as Channel;
    ids = (await h.store.reading.timeline({ channelId: channel.id, limit: 100 })).entries.map((e) => e.id);
    assert.ok(ids.length >= 4);
  });
  after(async () => {
    await server.close();
    await h.close();
  });

  it('offers Save on each entry of a channel, not pressed', async () => {
    const page = await client.get(`/c/${channel.uid}`);
    assert.match(
      page.text,
      new RegExp(`action="/entries/${ids[0]}/save" class="inline" data-action="toggle-save"`),
    );
    assert.match(
      page.text,
      /<button type="submit" aria-pressed="false" data-save-label="true"[^>]*>Save<\/button>/,
    );
    assert.match(
      page.text,
      /<a href="\/saved" data-view="saved"><span class="name">Saved<\/span><span class="count saved-count" data-saved-count="true" hidden="">0<\/span>/,
    );
  });

  it('saves an entry with the form and comes back to the page it came from', async () => {
    const [first] = ids;
    const answer = await client.post(`/entries/${first}/save`, { saved: '1', return: `/c/${channel.uid}` });
    assert.equal(answer.status, 303);
    assert.equal(answer.headers.get('location'), `/c/${channel.uid}`);
    assert.deepEqual(await savedIds(), [first]);
    const page = await client.get(`/c/${channel.uid}`);
    assert.match(page.text, /aria-pressed="true" data-save-label="true"[^>]*>Saved<\/button>/);
    assert.match(page.text, /data-saved-count="true">1<\/span>/);
    assert.match(page.text, /Saved\./);
  });

  it('answers the script with JSON: the new state and how many are saved', async () => {
    const [, second, third] = ids;
    const json = { accept: 'application/json' };
    h.clock.advance(60_000);
    const saved = await client.post(`/entries/${second}/save`, { saved: '1' }, json);
    assert.equal(saved.status, 200);
    const answer = JSON.parse(saved.text);
    assert.deepEqual(
      { ...answer, counts: undefined },
      { ok: true, saved: true, savedCount: 2, counts: undefined },
    );
    // with every count the page draws, for its script
    assert.equal(answer.counts.saved, 2);
    assert.equal(
      answer.counts.unread.all,
      (await h.store.reading.unreadCounts()).reduce((n, c) => n + c.unread, 0),
    );
    await client.post(`/entries/${third}/save`, { saved: '1' }, json);
    const unsaved = await client.post(`/entries/${third}/save`, { saved: '0' }, json);
    assert.deepEqual(
      { ...JSON.parse(unsaved.text), counts: undefined },
      { ok: true, saved: false, savedCount: 2, counts: undefined },
    );
    const unknown = await client.post('/entries/999999/save', { saved: '1' }, json);
    assert.equal(unknown.status, 404);
    assert.equal(JSON.parse(unknown.text).error, 'not_found');
    assert.equal((await client.post('/entries/999999/save', { saved: '1' })).status, 404);
    assert.equal((await client.post('/entries/nope/save', { saved: '1' })).status, 404);
    // the CSRF token is required, as on every form
    assert.equal((await client.post(`/entries/${third}/save`, { saved: '1', _csrf: null })).status, 403);
    assert.deepEqual((await savedIds()).sort(), [ids[0], second].sort());
  });

  it('lists Saved, the most recently saved first, in pages with cursors; a bad cursor is a 400', async () => {
    const [first, second] = ids;
    const page = await client.get('/saved');
    assert.equal(page.status, 200);
    assert.match(page.text, /<h1>Saved<\/h1>/);
    assert.match(page.text, /<a href="\/saved" aria-current="page" data-view="saved">/);
    const links = hrefs(page.text, /href="(\/saved\/e\/\d+)"/g);
    assert.deepEqual(links, [`/saved/e/${second}`, `/saved/e/${first}`]);
    // more than a page: 25 saved in the river (20 a page)
    await h.store.sync.setSaved(ids.slice(2, 25), true, h.clock.now().toISOString());
    const full = await client.get('/saved');
    const older = hrefs(full.text, /href="([^"]+)" rel="next" data-pager="older"/g)[0] ?? '';
    assert.ok(older.startsWith('/saved?after='));
    const next = await client.get(older);
    assert.equal(next.status, 200);
    const onBoth = hrefs(full.text, /href="\/saved\/e\/(\d+)"/g).filter((id) =>
      hrefs(next.text, /href="\/saved\/e\/(\d+)"/g).includes(id),
    );
    assert.deepEqual(onBoth, []);
    const bad = await client.get('/saved?after=nope');
    assert.equal(bad.status, 400);
    assert.match(bad.text, /paging cursor/);
    assert.equal((await client.get('/saved?before=%00')).status, 400);
    await h.store.sync.setSaved(ids.slice(2, 25), false, h.clock.now().toISOString());
  });

  it('opens a saved entry on its page, marks it read, and links previous and next inside Saved', async () => {
    const [first, second, third] = ids;
    assert.ok(first && second && third);
    h.clock.advance(60_000);
    await client.post(`/entries/${third}/save`, { saved: '1' });
    // Saved, most recent first: third, second, first
    const page = await client.get(`/saved/e/${second}`);
    assert.equal(page.status, 200);
    assert.equal((await h.store.reading.entriesById(channel.id, [second]))[0]?.isRead, true);
    assert.deepEqual(hrefs(page.text, /href="([^"]+)" rel="prev"/g)[0], `/saved/e/${third}`);
    assert.deepEqual(hrefs(page.text, /href="([^"]+)" rel="next"/g)[0], `/saved/e/${first}`);
    assert.match(page.text, /href="\/saved" data-back="true">Back to Saved</);
    assert.match(page.text, /aria-pressed="true" data-save-label="true"[^>]*>Saved<\/button>/);
    assert.equal((await client.get('/saved/e/999999')).status, 404);
    assert.equal((await client.get('/saved/e/abc')).status, 404);
  });

  it('offers Save in the list of titles too, pressed under Saved', async () => {
    await client.post('/mode', { mode: 'list', return: '/saved' });
    const page = await client.get('/saved');
    assert.match(page.text, /data-mode="list"/);
    assert.match(
      page.text,
      /<article class="entry row is-read" data-entry="\d+"[^>]*>.*?class="inline row-save" data-action="toggle-save">.*?aria-pressed="true" data-save-label="true"[^>]*>Saved<\/button>/,
    );
    await client.post('/mode', { mode: 'river', return: '/saved' });
  });

  it('unsaves from a saved entry page: the entry stays shown, with Save and no neighbours', async () => {
    const [, second] = ids;
    const answer = await client.post(`/entries/${second}/save`, { saved: '0', return: `/saved/e/${second}` });
    assert.equal(answer.headers.get('location'), `/saved/e/${second}`);
    const page = await client.get(`/saved/e/${second}`);
    assert.equal(page.status, 200);
    assert.match(page.text, /aria-pressed="false" data-save-label="true"[^>]*>Save<\/button>/);
    assert.match(page.text, /<span class="muted">Next →<\/span>/);
    assert.doesNotMatch((await client.get('/saved')).text, new RegExp(`/saved/e/${second}"`));
  });

  it('keeps a saved entry in Saved after its feed is unfollowed, with Save its only action', async () => {
    const [first] = ids;
    const feed = await h.store.feeds.findByUrl(server.feedUrl);
    assert.ok(feed);
    await h.store.feeds.remove(feed.id);
    const page = await client.get('/saved');
    assert.match(page.text, new RegExp(`href="/saved/e/${first}"`));
    assert.doesNotMatch(page.text, /\/c\/\/entries/);
    assert.doesNotMatch(page.text, /Mark read/);
    assert.doesNotMatch(page.text, /class="badge unread"/);
    const entry = await client.get(`/saved/e/${first}`);
    assert.equal(entry.status, 200);
    assert.match(entry.text, new RegExp(`action="/entries/${first}/save"`));
  });
});
