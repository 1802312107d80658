// Values the command line refuses in one line, with the README's exit codes (2: the command line cannot be
// used), and how it prints what it took: found by trying each command as a person would.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { BatchCase } from './helpers/cli-batch.js';
import { runAll } from './helpers/cli-batch-run.js';
import { oneLine } from './helpers/cli-results.js';

const dir = mkdtempSync(join(tmpdir(), 'tidings-cli-values-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const PASSWORD = 'a long enough password\n';

describe('the command line and the values it is given', () => {
  it('refuses bad values in one line, exit 2 where the command line cannot be used', async () => {
    const opml = join(dir, 'feeds.opml');
    writeFileSync(
      opml,
      '<opml version="2.0"><body><outline type="rss" text="A" xmlUrl="https://a.example/feed.xml"/></body></opml>',
    );
    const env = { TIDINGS_DATABASE_URL: `sqlite:${join(dir, 'values.db')}` };
    const cases: BatchCase[] = [
      { args: ['user', 'add', 'ann', '--admin'], input: PASSWORD }, // 0
      { args: ['import', '--no-fetch', opml] },
      { args: ['feed', '1', '--user-agent', 'bad\nagent'] }, // 2
      { args: ['feed', '1', '--interval', 'banana'] },
      { args: ['feed', '1', '--pause', '--resume'] }, // 4
      { args: ['feed', '1', '--interval', '61s'] },
      { args: ['feed', '1'] }, // 6: unchanged by the refusals
      { args: ['token', 'revoke', 'abc'] },
      { args: ['token', 'create', '--scope', 'READ,Follow'] }, // 8
      { args: ['token', 'create', '--scope', ' , '] },
      { args: ['user', 'add', 'bob'], input: 'first line\nsecond line\n' }, // 10
      { args: ['password', '--user', 'ann'], input: 'first line\r\nsecond\n' },
      { args: ['api-password', '--user', 'ann'], input: 'one line\ntwo lines\n' }, // 12
      { args: ['user', 'set', 'ann', '--me', 'https://ann.example/#me'] },
      { args: ['user', 'set', 'ann', '--me', 'https://ann:secret@ann.example/'] }, // 14
      { args: ['user', 'list', '--json'] },
      { args: ['user', 'set', 'ann', '--no-admin', '--admin'] }, // 16
    ];
    const results = await runAll(cases.map((one) => ({ ...one, env })));
    assert.equal(results[0]?.code, 0, results[0]?.stderr);
    assert.equal(results[1]?.code, 0, results[1]?.stderr);
    const refused = (index: number, code: number, pattern: RegExp) => {
      const result = results[index];
      assert.equal(result?.code, code, `case ${index}: ${result?.stderr}`);
      assert.match(oneLine(result, code), pattern);
    };
    refused(2, 2, /^tidings: feed: the User-Agent must be one line of printable characters$/);
    refused(3, 2, /cannot read the interval "banana"/);
    refused(4, 2, /--pause and --resume contradict each other/);
    assert.match(results[5]?.stdout ?? '', /interval: {3}1 min 1 s\n/);
    assert.match(results[6]?.stdout ?? '', /user agent: default\n {2}paused: {5}no\n$/);
    refused(7, 2, /^tidings: token: revoke takes a token id \(a number\), not "abc"$/);
    assert.match(results[8]?.stdout ?? '', /with scope "read follow"/);
    refused(9, 2, /--scope names no scope/);
    for (const index of [10, 11, 12]) refused(index, 1, /the password must be one line/);
    refused(13, 1, /--me must have no #fragment/);
    refused(14, 1, /--me must have no user name or password/);
    assert.equal(results[15]?.stdout, '{"users":[{"name":"ann","admin":true,"subscriptions":1}]}\n');
    refused(16, 2, /^tidings: user set: --admin and --no-admin contradict each other$/);
  });
});
