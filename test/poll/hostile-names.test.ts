// Entries whose guids, prefixes and element names are Object.prototype's member names are stored like
// any other (issue 12: parseFeed threw on them and such entries were lost). Both backends.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pollOnce } from '../../src/poll/poller.js';
import type { Store } from '../../src/store/index.js';
import { send, startServer, type TestServer } from '../helpers/http-server.js';
import { pollDeps, testClock } from '../helpers/poll-harness.js';
import { addFollowedFeed, storeBackends } from '../helpers/temp-store.js';

const NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'prototype'];
const RSS =
  '<rss version="2.0" xmlns:__proto__="urn:p"><channel><title>t</title><constructor:x>1</constructor:x>' +
  NAMES.map(
    (n) =>
      `<item ${n}="1"><guid isPermaLink="false">${n}</guid><title>${n}</title><${n}>x</${n}><__proto__:a/></item>`,
  ).join('') +
  '</channel></rss>';

for (const backend of storeBackends()) {
  describe(`poll a feed of hostile names (${backend.name})`, { skip: backend.skip }, () => {
    let server: TestServer;
    let store: Store;
    const clock = testClock();

    before(async () => {
      server = await startServer({
        '/feed': (_req, res) => send(res, 200, RSS, { 'content-type': 'application/rss+xml' }),
      });
      store = await backend.open();
    });

    after(async () => {
      await server.close();
      await backend.cleanup();
    });

    it('stores every entry, guids such as __proto__ included', async () => {
      const feed = await addFollowedFeed(store, `${server.url}/feed`, clock.now().toISOString());
      await pollOnce(pollDeps(store, clock), { feedIds: [feed.id], force: true });
      const entries = await store.entries.listByFeed(feed.id, 100);
      assert.deepEqual(entries.map((e) => e.guid).sort(), [...NAMES].sort());
      const heartbeat = (await store.heartbeats.list(feed.id, 1))[0];
      assert.equal(heartbeat?.status, 'parse_error'); // constructor: is an undeclared prefix
    });
  });
}
