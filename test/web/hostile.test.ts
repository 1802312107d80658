import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DomUtils, parseDocument } from 'htmlparser2';
import { startVectorsServer } from '../helpers/hostile-feed.js';
import { findActiveContent, readVectors } from '../helpers/hostile-html.js';
import { startFixtures } from './fixtures.js';
import { type Client, signedIn, type WebHarness, webHarness } from './harness.js';

describe('web: hostile feed content', () => {
  let h: WebHarness;
  let client: Client;
  let server: Awaited<ReturnType<typeof startFixtures>>;
  let page: string;

  before(async () => {
    h = await webHarness();
    server = await startFixtures();
    client = await signedIn(h.app);
    const followed = await client.post('/subscriptions/follow', {
      url: `${server.url}/hostile.xml`,
      channel: '',
    });
    page = (await client.get(followed.headers.get('location') ?? '/')).text;
  });
  after(async () => {
    await server.close();
    await h.close();
  });

  it('renders the entry with no script, event handler, javascript: URL, frame, base or meta refresh', () => {
    assert.match(page, /Hostile content follows/);
    const body = page.slice(page.indexOf('<body>'));
    assert.doesNotMatch(body, /<script/i, 'the only script is our own, in the head');
    assert.doesNotMatch(body, /\son[a-z]+\s*=/i);
    assert.doesNotMatch(body, /javascript:/i);
    for (const tag of ['iframe', 'object', 'embed', 'base', 'meta', 'style', 'link'])
      assert.doesNotMatch(body, new RegExp(`<${tag}[\\s>]`, 'i'), tag);
    assert.equal(page.match(/<script/g)?.length, 1);
  });

  it('does not link the title to a javascript: URL, nor redirect to one on open', async () => {
    assert.doesNotMatch(page, /href="javascript/i);
    const channel = (await h.store.channels.list()).find((c) => c.uid !== 'notifications');
    const [entry] = (await h.store.reading.timeline({ channelId: channel?.id ?? 0, limit: 1 })).entries;
    const open = await client.get(`/c/${channel?.uid}/open/${entry?.id}`);
    assert.equal(open.status, 303);
    assert.doesNotMatch(open.headers.get('location') ?? '', /javascript/i);
  });

  it('escapes markup in titles', () => {
    assert.doesNotMatch(page, /<title>[^<]*<script/);
    assert.ok(!page.includes('alert("title")</script>'));
  });
});

// Issue 12: a feed with an entry per hostile vector family (test/fixtures/hostile/vectors/), followed
// and shown on its channel page: each entry's content is there, and carries nothing active.
describe('web: every hostile vector on a channel page', () => {
  let h: WebHarness;
  let server: Awaited<ReturnType<typeof startVectorsServer>>;
  let page: string;

  before(async () => {
    h = await webHarness();
    server = await startVectorsServer();
    const client = await signedIn(h.app);
    const followed = await client.post('/subscriptions/follow', { url: server.feedUrl, channel: '' });
    page = (await client.get(followed.headers.get('location') ?? '/')).text;
  });
  after(async () => {
    await server.close();
    await h.close();
  });

  it('shows each vector with no script, handler, script URL, form control or mXSS wrapper', () => {
    const contents = DomUtils.findAll(
      (el) => (el.attribs['class'] ?? '').split(' ').includes('entry-content'),
      parseDocument(page).children,
    ).map((el) => DomUtils.getInnerHTML(el));
    const vectors = readVectors();
    assert.equal(contents.length, vectors.length);
    for (const vector of vectors) {
      const html = contents.find((c) => c.includes(`Vector ${vector.name}:`));
      assert.ok(html !== undefined, `${vector.name} is on the page`);
      assert.deepEqual(findActiveContent(html), [], `${vector.name}: ${html}`);
    }
    const body = page.slice(page.indexOf('<body>'));
    assert.equal(page.match(/<script/g)?.length, 1, 'the only script is our own, in the head');
    assert.doesNotMatch(body, /javascript:|vbscript:/i);
  });
});
