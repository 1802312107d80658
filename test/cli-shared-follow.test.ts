// Issue 24: a feed someone already follows is fetched once for all; the next follower's `add` says how
// many entries they got (the feed's), not how many the first fetch found new (none).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { BatchCase } from './helpers/cli-batch.js';
import { runAll } from './helpers/cli-batch-run.js';
import { send, startServer } from './helpers/http-server.js';
import { rss } from './helpers/poll-harness.js';

const dir = mkdtempSync(join(tmpdir(), 'tidings-cli-shared-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('tidings add of a feed another user follows', () => {
  it('counts the entries the person got', async () => {
    const site = await startServer({
      '/feed.xml': (_req, res) =>
        send(
          res,
          200,
          rss([
            { guid: 'a', title: 'A' },
            { guid: 'b', title: 'B' },
          ]),
          { 'content-type': 'application/rss+xml' },
        ),
    });
    try {
      const env = {
        TIDINGS_DATABASE_URL: `sqlite:${join(dir, 'shared.db')}`,
        TIDINGS_ALLOW_PRIVATE_ADDRESSES: 'true',
      };
      const password = 'a long enough password\n';
      const url = `${site.url}/feed.xml`;
      const cases: BatchCase[] = [
        { args: ['user', 'add', 'ann', '--admin'], input: password },
        { args: ['user', 'add', 'bob'], input: password },
        { args: ['add', url, '--user', 'ann'] },
        { args: ['add', url, '--user', 'bob'] },
      ];
      const results = await runAll(cases.map((one) => ({ ...one, env })));
      for (const result of results) assert.equal(result.code, 0, result.stderr);
      assert.match(results[2]?.stdout ?? '', /to Home: ok, 2 entries\n/);
      assert.match(results[3]?.stdout ?? '', /to Home: ok, 2 entries\n/);
    } finally {
      await site.close();
    }
  });
});
