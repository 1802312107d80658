import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { verifySignature } from '../../src/notify/index.js';
import type { Store } from '../../src/store/index.js';
import { send, startServer, type TestServer } from '../helpers/http-server.js';
import { type Client, type Page, twoSignedIn, type WebHarness, webHarness } from './harness.js';

// Issue 25: the web UI's Alerts page does what `tidings notify` does, for the signed-in user's own
// destinations only. The harness's config allows private addresses, so a receiver on 127.0.0.1 can be
// reached as a webhook would be.

/** The page's text with the entities JSX writes turned back into characters. */
function text(page: Page): string {
  return page.text
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
}

/** The words of destination `id`'s row on the Alerts page (tags left out), or undefined. */
function row(page: Page, id: number): string | undefined {
  const cells = new RegExp(`<tr data-destination="${id}">([\\s\\S]*?)</tr>`).exec(text(page))?.[1];
  return cells?.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
}

/** What a page says in its main part: a foreign id must be answered in the same words as a missing one. */
function main(page: Page): string {
  return /<main id="main">([\s\S]*?)<\/main>/.exec(page.text)?.[1] ?? page.text;
}

describe('web: alerts', () => {
  let h: WebHarness;
  let receiver: TestServer;
  let annStore: Store;
  let bobStore: Store;
  let ann: Client;
  let bob: Client;

  before(async () => {
    h = await webHarness();
    ({ annStore, bobStore, ann, bob } = await twoSignedIn(h));
    receiver = await startServer({
      'POST /hook': (_req, res) => send(res, 204),
      'POST /broken': (_req, res) => send(res, 500, 'down'),
    });
  });
  after(async () => {
    await receiver.close();
    await h.close();
  });

  it('is in the navigation, and says when there are no destinations', async () => {
    const page = await ann.get('/alerts');
    assert.equal(page.status, 200);
    assert.match(page.text, /<a href="\/alerts" aria-current="page">Alerts<\/a>/);
    assert.match(page.text, /No destinations yet\./);
    for (const type of [
      'feed.failing',
      'feed.recovered',
      'feed.silent',
      'feed.gone',
      'feed.moved',
      'entry.matched',
    ])
      assert.match(page.text, new RegExp(`name="events" value="${type.replace('.', '\\.')}"`));
  });

  let hookId = 0;
  let secret = '';
  it('adds a webhook with a new secret, shown once', async () => {
    const added = await ann.post('/alerts', {
      kind: 'webhook',
      target: `${receiver.url}/hook`,
      events: ['feed.failing', 'feed.recovered'],
    });
    assert.equal(added.status, 200, added.text.slice(0, 300));
    const created =
      /aria-label="Webhook secret" data-secret value="([^"]+)"|value="([^"]+)"[^>]*data-secret/.exec(
        added.text,
      );
    secret = created?.[1] ?? created?.[2] ?? '';
    assert.ok(secret.length >= 32, 'the generated secret is on the page');
    const [stored] = await annStore.notify.list();
    assert.ok(stored);
    hookId = stored.id;
    assert.equal(stored.secret, secret);
    assert.deepEqual(stored.events, ['feed.failing', 'feed.recovered']);
    // never again
    const list = await ann.get('/alerts');
    assert.doesNotMatch(list.text, new RegExp(secret));
    assert.match(
      row(list, hookId) ?? '',
      /webhook .*\/hook.*\(signed\)[\s\S]*feed\.failing, feed\.recovered/,
    );
  });

  it('adds an ntfy topic and an email address with a daily digest; a given secret is not shown', async () => {
    const ntfy = await ann.post('/alerts', {
      kind: 'ntfy',
      target: 'https://ann:T0pic5ecret@ntfy.example/alerts',
    });
    assert.equal(ntfy.status, 303);
    const mail = await ann.post('/alerts', { kind: 'email', target: 'ann@example.org', digest: 'daily' });
    assert.equal(mail.status, 303);
    const own = await ann.post('/alerts', {
      kind: 'webhook',
      target: `${receiver.url}/broken`,
      secret: 'my-own-long-secret',
    });
    assert.equal(own.status, 303, 'a secret of her own is not shown back');
    const list = await ann.get('/alerts');
    assert.match(list.text, /Added destination \d+: webhook/);
    const [, ntfyRow, mailRow, ownRow] = await annStore.notify.list();
    assert.deepEqual(
      [ntfyRow?.kind, mailRow?.kind, mailRow?.digest, ownRow?.secret],
      ['ntfy', 'email', 'daily', 'my-own-long-secret'],
    );
    assert.match(
      row(list, ntfyRow?.id ?? 0) ?? '',
      /ntfy[\s\S]*https:\/\/ann:\*\*\*@ntfy\.example\/alerts[\s\S]*every event/,
    );
    assert.doesNotMatch(list.text, /T0pic5ecret/);
    assert.match(row(list, mailRow?.id ?? 0) ?? '', /email ann@example\.org[\s\S]*every event; daily digest/);
    assert.match(row(list, mailRow?.id ?? 0) ?? '', /nothing sent yet[\s\S]*0 sent, 0 waiting, 0 given up/);
    assert.doesNotMatch(list.text, /my-own-long-secret/);
  });

  it('refuses a bad URL, a bad address, a short secret and a digest for a webhook with 400 and why', async () => {
    const before = (await annStore.notify.list()).length;
    const cases: [Record<string, string>, RegExp][] = [
      [
        { kind: 'webhook', target: 'ftp://example.org/x' },
        /a webhook destination is an http or https URL, not "ftp:/,
      ],
      [{ kind: 'ntfy', target: 'not a url' }, /a ntfy destination is an http or https URL/],
      [{ kind: 'ntfy', target: 'https://ntfy.example/' }, /an ntfy destination names its topic/],
      [{ kind: 'email', target: 'not-an-address' }, /"not-an-address" is not an email address/],
      [
        { kind: 'webhook', target: 'https://example.org/h', secret: 'short' },
        /The secret is too short to sign/,
      ],
      [
        { kind: 'ntfy', target: 'https://ntfy.example/a', secret: 'long enough secret' },
        /The secret is for webhooks/,
      ],
      [
        { kind: 'webhook', target: 'https://example.org/h', digest: 'daily' },
        /The digest takes `daily`, for email/,
      ],
      [{ kind: 'pager', target: 'https://example.org/h' }, /"pager" is not a kind of destination/],
      [{ kind: 'webhook', target: 'https://example.org/h', events: 'feed.exploded' }, /not feed\.exploded/],
    ];
    for (const [form, why] of cases) {
      const page = await ann.post('/alerts', form);
      assert.equal(page.status, 400, JSON.stringify(form));
      assert.match(text(page), why);
      assert.match(page.text, /class="error" role="alert"/);
    }
    assert.equal((await annStore.notify.list()).length, before, 'nothing added');
  });

  it('sends a test and shows the answer; the receiver gets a signed body', async () => {
    const from = receiver.requests.length;
    const tested = await ann.post(`/alerts/${hookId}/test`);
    assert.equal(tested.status, 303);
    const page = await ann.get('/alerts');
    assert.match(text(page), new RegExp(`Destination ${hookId} \\(webhook .*/hook\\) answered: HTTP 204`));
    const request = receiver.requests.slice(from).find((r) => r.path === '/hook');
    assert.ok(request, 'the receiver got the test');
    assert.ok(verifySignature(request.body, secret, String(request.headers['x-tidings-signature'])));
    assert.equal((JSON.parse(request.body.toString('utf8')) as { type: string }).type, 'test');
    assert.match(row(page, hookId) ?? '', /working, last sent/);
  });

  it('shows why a test failed, and the destination as failing', async () => {
    const broken = (await annStore.notify.list()).find((d) => d.target.endsWith('/broken'));
    assert.ok(broken);
    assert.equal((await ann.post(`/alerts/${broken.id}/test`)).status, 303);
    const page = await ann.get('/alerts');
    assert.match(
      text(page),
      new RegExp(`Destination ${broken.id} \\(webhook .*/broken\\) failed the test: .*500`),
    );
    assert.match(row(page, broken.id) ?? '', /failing since [\s\S]*500/);
  });

  it("answers another user's destination as a missing one, and changes nothing", async () => {
    const annIds = (await annStore.notify.list()).map((d) => d.id);
    const from = receiver.requests.length;
    const bobsPage = await bob.get('/alerts');
    assert.match(bobsPage.text, /No destinations yet\./, 'bob sees none of ann’s');
    assert.doesNotMatch(bobsPage.text, /ann@example\.org/);
    const missing = await bob.post('/alerts/999999/remove');
    for (const path of [`/alerts/${hookId}/remove`, `/alerts/${hookId}/test`, '/alerts/999999/test']) {
      const answer = await bob.post(path);
      assert.equal(answer.status, 404, path);
      assert.equal(main(answer), main(missing), path);
    }
    assert.deepEqual(
      (await annStore.notify.list()).map((d) => d.id),
      annIds,
      'all of ann’s destinations are still there',
    );
    assert.equal(receiver.requests.length, from, 'no test was sent for bob');
    assert.equal((await bobStore.notify.list()).length, 0);
  });

  it('removes a destination', async () => {
    const removed = await ann.post(`/alerts/${hookId}/remove`);
    assert.equal(removed.status, 303);
    const page = await ann.get('/alerts');
    assert.match(page.text, new RegExp(`Removed destination ${hookId}\\.`));
    assert.equal(row(page, hookId), undefined);
    assert.equal(await annStore.notify.get(hookId), undefined);
    assert.equal((await ann.post(`/alerts/${hookId}/remove`)).status, 404, 'and it is gone');
  });

  it('refuses a form without its CSRF token', async () => {
    const page = await ann.post('/alerts', { _csrf: null, kind: 'ntfy', target: 'https://ntfy.example/x' });
    assert.equal(page.status, 403);
    assert.equal(
      (await annStore.notify.list()).some((d) => d.target === 'https://ntfy.example/x'),
      false,
    );
  });
});
