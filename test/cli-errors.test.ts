// Issue 22, "some CLI errors lack the `tidings:` prefix": every way a command can fail ends in exactly one
// line on stderr, `tidings: ...`, no stack frame, and a non-zero exit. The command lines run one after
// the other in one CLI process (test/helpers/cli-batch.ts, through runCommand as src/cli.ts does), so that
// walking all of them costs one start of the CLI, not one each.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { createProgram } from '../src/cli/program.js';
import { openStore } from '../src/store/index.js';
import type { BatchCase, BatchResult } from './helpers/cli-batch.js';
import { runAll } from './helpers/cli-batch-run.js';

/** A command line, what it must print as its one line on stderr, and its exit code. */
interface Mistake extends BatchCase {
  code: number;
  line: RegExp;
}

/** Every command as its path of names (`token revoke`), with the command. */
function commandsOf(command: Command, path: string[] = []): { path: string[]; command: Command }[] {
  return command.commands.flatMap((sub) => {
    const here = [...path, sub.name()];
    const subs = commandsOf(sub, here);
    return subs.length > 0 ? subs : [{ path: here, command: sub }];
  });
}

/** commander's mistakes, for every command: an unknown option, a missing argument, a missing option. */
function usageMistakes(): Mistake[] {
  const commands = commandsOf(createProgram());
  assert.ok(commands.length >= 15, commands.map((c) => c.path.join(' ')).join(', '));
  return [
    ...commands.flatMap(({ path, command }) => {
      const name = path.join(' ');
      // commander checks required options first: give them
      const required = command.options.filter((o) => o.mandatory).flatMap((o) => [o.long ?? '', 'x']);
      const out: Mistake[] = [
        {
          args: [...path, ...required, '--bogus-option'],
          code: 2,
          line: new RegExp(
            `^tidings: ${name}: unknown option '--bogus-option' \\(see tidings ${name} --help\\)$`,
          ),
        },
      ];
      if (command.registeredArguments.some((a) => a.required))
        out.push({ args: path, code: 2, line: new RegExp(`^tidings: ${name}: missing required argument`) });
      if (command.options.some((o) => o.mandatory))
        out.push({
          args: path,
          code: 2,
          line: new RegExp(`^tidings: ${name}: required option .* not specified`),
        });
      return out;
    }),
    { args: ['frob'], code: 2, line: /^tidings: unknown command 'frob' \(see tidings --help\)$/ },
    { args: ['stauts'], code: 2, line: /^tidings: unknown command 'stauts' \(Did you mean status\?\)/ },
    { args: ['token', 'frob'], code: 2, line: /^tidings: token: unknown command 'frob'/ },
    // a command given without its subcommand: one line, not the whole help
    { args: [], code: 2, line: /^tidings: missing command \(see tidings --help\)$/ },
    ...['token', 'user', 'notify', 'rule'].map((group) => ({
      args: [group],
      code: 2,
      line: new RegExp(`^tidings: ${group}: missing command \\(see tidings ${group} --help\\)$`),
    })),
  ];
}

/** The mistakes each command finds itself. */
function commandMistakes(dir: string, feedId: number): Mistake[] {
  const feed = String(feedId);
  return [
    { args: ['feed', '99999'], code: 1, line: /^tidings: feed: no feed 99999$/ },
    {
      args: ['feed', feed, '--pause', '--resume'],
      code: 2,
      line: /--pause and --resume contradict each other/,
    },
    { args: ['feed', feed, '--interval', 'banana'], code: 2, line: /cannot read the interval "banana"/ },
    { args: ['status', '99999'], code: 1, line: /^tidings: status: no feed 99999 / },
    {
      args: ['remove', 'https://nobody.example/f'],
      code: 1,
      line: /^tidings: remove: no feed https:\/\/nobody/,
    },
    {
      args: ['remove', feed, '--channel', 'Nowhere'],
      code: 1,
      line: /^tidings: remove: there is no channel Nowhere$/,
    },
    { args: ['add', 'not a url'], code: 1, line: /^tidings: add: / },
    { args: ['add', 'http://127.0.0.1:9/feed.xml'], code: 1, line: /^tidings: add: .*private address/ },
    { args: ['token', 'revoke', '99'], code: 1, line: /^tidings: token: no token 99 / },
    { args: ['token', 'create', '--scope', ','], code: 2, line: /^tidings: token: --scope names no scope$/ },
    { args: ['poll', '--feed', '1'], code: 2, line: /^tidings: poll: --feed needs --once$/ },
    { args: ['poll', '--force'], code: 2, line: /^tidings: poll: --force needs --once$/ },
    { args: ['poll', '--once', '--feed', 'abc'], code: 2, line: /--feed takes feed ids .*not "abc"/ },
    { args: ['poll', '--once', '--feed', '99999'], code: 1, line: /^tidings: poll: no feed 99999 / },
    { args: ['serve', '--port', 'abc'], code: 2, line: /--port takes a port number/ },
    { args: ['import', join(dir, 'missing.opml')], code: 1, line: /missing\.opml: no such file or folder$/ },
    {
      args: ['import', '--no-fetch', join(dir, 'empty.opml')],
      code: 1,
      line: /^tidings: import: .*empty\.opml lists no feed/,
    },
    {
      args: ['parse', join(dir, 'missing.xml')],
      code: 1,
      line: /^tidings: parse: .*missing\.xml: no such file/,
    },
    {
      args: ['parse', join(dir, 'subs.opml')],
      code: 1,
      line: /is an OPML subscription list, not a feed; tidings import /,
    },
    {
      args: ['status', '--database', 'mysql://u:secret@x/db'],
      code: 1,
      line: /unsupported database URL mysql:\/\/u:\*\*\*@x/,
    },
    {
      args: ['doctor', '--retention'],
      env: { TIDINGS_RETENTION_DAYS: 'soon' },
      code: 1,
      line: /TIDINGS_RETENTION_DAYS must be a whole number/,
    },
    {
      args: ['status'],
      env: { TIDINGS_POLL_INTERVAL: 'banana' },
      code: 1,
      line: /TIDINGS_POLL_INTERVAL must be/,
    },
    {
      args: ['password'],
      input: 'short\n',
      code: 1,
      line: /^tidings: password: use at least 8 characters; nothing changed$/,
    },
    {
      args: ['api-password', '--user', 'ann'],
      input: 'short\n',
      code: 1,
      line: /^tidings: api-password: .*; nothing changed$/,
    },
  ];
}

function assertOneLine(mistake: Mistake, run: BatchResult | undefined): void {
  const what = mistake.args.join(' ');
  assert.ok(run, what);
  const lines = run.stderr.split('\n').filter((line) => line !== '');
  assert.equal(lines.length, 1, `${what}: one line on stderr, got:\n${run.stderr}`);
  assert.match(lines[0] as string, /^tidings: /, what);
  assert.doesNotMatch(run.stderr, /^\s+at /m, what);
  assert.match(lines[0] as string, mistake.line, what);
  assert.equal(run.code, mistake.code, `${what}: ${run.stderr}`);
}

describe('tidings CLI: every error is one line starting tidings:', () => {
  let dir: string;
  let usage: Mistake[];
  let own: Mistake[];
  let results: BatchResult[];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tidings-errors-'));
    const databaseUrl = `sqlite:${join(dir, 't.db')}`;
    const store = await openStore(databaseUrl);
    await store.migrate();
    const channel = await store.channels.create('News');
    const feed = await store.feeds.add('https://followed.example/feed.xml', new Date().toISOString());
    await store.channels.subscribe(channel.id, feed.id, new Date().toISOString());
    await store.close();
    writeFileSync(join(dir, 'empty.opml'), '<opml version="2.0"><head/><body></body></opml>');
    writeFileSync(
      join(dir, 'subs.opml'),
      '<opml version="2.0"><body><outline xmlUrl="https://a.example/f"/></body></opml>',
    );
    usage = usageMistakes();
    own = commandMistakes(dir, feed.id);
    const env = { TIDINGS_DATABASE_URL: databaseUrl, TIDINGS_PARSE_WORKERS: '0' };
    const cases: BatchCase[] = [...usage, ...own, { args: ['serve', '--help'] }];
    results = await runAll(cases.map((m) => ({ ...m, env: { ...env, ...m.env } })));
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  it("refuses an unknown option and a missing argument of every command in commander's place", () => {
    for (const [i, mistake] of usage.entries()) assertOneLine(mistake, results[i]);
  });

  it('says what is wrong in one line for each mistake a command finds itself', () => {
    for (const [i, mistake] of own.entries()) assertOneLine(mistake, results[usage.length + i]);
  });

  it('names the sync APIs and their paths in serve --help', () => {
    const help = results[usage.length + own.length];
    assert.equal(help?.code, 0);
    assert.equal(help?.stderr, '');
    const text = (help?.stdout ?? '').replace(/\s+/g, ' ');
    assert.match(text, /Microsub endpoint \(\/microsub\)/);
    assert.match(text, /Google Reader at \/api\/greader, Fever at \/api\/fever/);
  });

  it('leaves no error in src/cli written by hand: each is a UserError that runCommand prints', () => {
    // A line written to stderr and then a failing exit code is how the prefix went missing.
    const cli = fileURLToPath(new URL('../src/cli/', import.meta.url));
    const found: string[] = [];
    for (const name of readdirSync(cli).filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts'))) {
      const lines = readFileSync(join(cli, name), 'utf8').split('\n');
      lines.forEach((line, i) => {
        if (!line.includes('process.stderr.write')) return;
        const next = lines.slice(i, i + 4).join('\n');
        if (/return [12];|exitCode = [12]/.test(next)) found.push(`${name}:${i + 1}`);
      });
    }
    assert.deepEqual(found, []);
  });
});
