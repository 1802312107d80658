// A feed behind Basic auth is followed as https://user:pass@host/feed; its password reached the log of
// every poll (issue 22). Polls of such feeds, answered or refused, log no password: with the logger of
// `serve` (which redacts every line) and with a plain pino logger (the call sites redact).
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { createLogger, type Logger } from '../../src/log.js';
import { pollOnce } from '../../src/poll/poller.js';
import type { Store } from '../../src/store/index.js';
import { send, startServer, type TestServer } from '../helpers/http-server.js';
import { pollDeps, rss, testClock } from '../helpers/poll-harness.js';
import { storeBackends } from '../helpers/temp-store.js';

const USER = 'reader';
const PASSWORD = 'feed-pa55word';
const BASIC = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`;

function captured(make: (sink: Writable) => Logger): { log: Logger; text: () => string } {
  let text = '';
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { log: make(sink), text: () => text };
}

describe('poll: credentials in feed URLs never reach the log', () => {
  const backend = storeBackends()[0];
  let server: TestServer;
  let store: Store;

  before(async () => {
    if (!backend) throw new Error('no SQLite backend');
    server = await startServer({
      '/private.xml': (req, res) => {
        if (req.headers.authorization !== BASIC)
          send(res, 401, 'who are you?', { 'www-authenticate': 'Basic' });
        else
          send(res, 200, rss([{ guid: 'p1', title: 'Private' }]), { 'content-type': 'application/rss+xml' });
      },
    });
    store = await backend.open();
  });
  after(async () => {
    await server.close();
    await backend?.cleanup();
  });

  const loggers = {
    "serve's logger": (sink: Writable) => createLogger('trace', sink),
    'a plain pino logger': (sink: Writable) => pino({ level: 'trace' }, sink),
  };

  for (const [name, make] of Object.entries(loggers)) {
    it(`logs the polls of a feed behind Basic auth without its password (${name})`, async () => {
      const clock = testClock();
      const url = new URL(server.url);
      const now = clock.now().toISOString();
      const right = await store.feeds.add(
        `http://${USER}:${PASSWORD}@${url.host}/private.xml?${name.length}`,
        now,
      );
      const wrong = await store.feeds.add(
        `http://${USER}:wrong-${PASSWORD}@${url.host}/private.xml?${name.length}`,
        now,
      );
      const channel = await store.channels.create(`Private ${name}`);
      for (const feed of [right, wrong]) await store.channels.subscribe(channel.id, feed.id, now);
      const { log, text } = captured(make);
      const summary = await pollOnce(
        { ...pollDeps(store, clock), log },
        { feedIds: [right.id, wrong.id], force: true },
      );
      assert.deepEqual(summary.byStatus, { ok: 1, fetch_error: 1 });
      await new Promise((resolve) => setImmediate(resolve));
      const lines = text().trim().split('\n');
      const refreshed = lines.filter((line) => line.includes('"refreshed"'));
      assert.equal(refreshed.length, 2, text());
      for (const line of refreshed)
        assert.match(line, new RegExp(`"url":"http://${USER}:\\*\\*\\*@${url.host}/private\\.xml`));
      assert.ok(!text().includes(PASSWORD), text());
    });
  }
});
