import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Store } from '../../src/store/index.js';
import { type Client, twoSignedIn, type WebHarness, webHarness } from './harness.js';

// Issue 25: the web UI's Rules page does what `tidings rule` does, for the signed-in user's own rules,
// and each rule is a saved-search view in the reader's sidebar.

describe('web: rules', () => {
  let h: WebHarness;
  let annStore: Store;
  let ann: Client;
  let bob: Client;

  before(async () => {
    h = await webHarness();
    ({ annStore, ann, bob } = await twoSignedIn(h));
    await annStore.channels.create('Work');
  });
  after(() => h.close());

  it('adds a rule, shows it as a saved search in the sidebar, and removes it', async () => {
    const empty = await ann.get('/rules');
    assert.equal(empty.status, 200);
    assert.match(empty.text, /<a href="\/rules" aria-current="page">Rules<\/a>/);
    assert.match(empty.text, /No rules yet\./);
    const work = (await annStore.channels.list()).find((ch) => ch.name === 'Work');
    assert.ok(work);
    const added = await ann.post('/rules', { query: '"red hat" -linux', action: 'save', channel: work.uid });
    assert.equal(added.status, 303);
    const [rule] = await annStore.rules.list();
    assert.deepEqual([rule?.query, rule?.action, rule?.channelId], ['"red hat" -linux', 'save', work.id]);
    const href = `/search?q=%22red+hat%22+-linux&amp;channel=${encodeURIComponent(work.uid)}`;
    const list = await ann.get('/rules');
    assert.match(list.text, new RegExp(`<tr data-rule="${rule?.id}">[\\s\\S]*?save[\\s\\S]*?Work`));
    // the sidebar of every reading page lists it, and its link is the search it saves
    const reader = await ann.get('/all');
    const sidebar = /<ul class="views-list saved-searches"[\s\S]*?<\/ul>/.exec(reader.text)?.[0] ?? '';
    assert.ok(sidebar.includes(`href="${href}"`), sidebar);
    assert.match(sidebar, /&quot;red hat&quot; -linux/);
    const search = await ann.get(href.replaceAll('&amp;', '&'));
    assert.equal(search.status, 200);
    // bob sees neither the rule nor a way to remove it
    assert.doesNotMatch((await bob.get('/all')).text, /saved-searches/);
    assert.equal((await bob.post(`/rules/${rule?.id}/remove`, {})).status, 404);
    assert.equal((await annStore.rules.list()).length, 1);
    const removed = await ann.post(`/rules/${rule?.id}/remove`, {});
    assert.equal(removed.status, 303);
    assert.deepEqual(await annStore.rules.list(), []);
  });

  it('refuses a rule it cannot keep with 400 and why, keeping what was typed', async () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ query: ' - ', action: 'read', channel: '' }, /The query needs at least one word/],
      [{ query: 'x', action: 'explode', channel: '' }, /Unknown action &quot;explode&quot;/],
      [{ query: 'kept words', action: 'read', channel: 'no-such' }, /There is no channel/],
    ];
    for (const [form, why] of cases) {
      const page = await ann.post('/rules', form);
      assert.equal(page.status, 400, JSON.stringify(form));
      assert.match(page.text, why);
      assert.ok(
        page.text.includes(`name="query" required="" maxlength="500" value="${form['query']?.trim()}"`),
      );
    }
    assert.deepEqual(await annStore.rules.list(), []);
  });
});
