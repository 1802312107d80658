#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { registerApiPassword } from './cli/api-password.js';
import { registerDoctor } from './cli/doctor.js';
import { describeFailure } from './cli/failure.js';
import { registerFeed } from './cli/feed.js';
import { registerOpml } from './cli/opml.js';
import { registerParse } from './cli/parse.js';
import { registerPassword } from './cli/password.js';
import { registerPoll } from './cli/poll.js';
import { registerServe } from './cli/serve.js';
import { registerStatus } from './cli/status.js';
import { registerSubscribe } from './cli/subscribe.js';
import { registerToken } from './cli/token.js';

/** The `tidings` command line: one subcommand per file in src/cli/. */
function main(argv: string[]): Promise<void> | void {
  const program = new Command();
  program
    .name('tidings')
    .description('A self-hosted feed reader that tells you precisely when something is wrong.')
    .version(packageVersion(), '-V, --version', 'print the version of tidings')
    .showHelpAfterError()
    // commander throws instead of exiting (the subcommands inherit it): fail() below picks the exit code
    .exitOverride();
  registerParse(program);
  registerSubscribe(program);
  registerFeed(program);
  registerPoll(program);
  registerStatus(program);
  registerOpml(program);
  registerServe(program);
  registerPassword(program);
  registerApiPassword(program);
  registerToken(program);
  registerDoctor(program);
  return program.parseAsync(argv).then(() => undefined);
}

/** The version in package.json (dist/cli.js and src/cli.ts both sit one folder below it). */
function packageVersion(): string {
  const text = readFileSync(new URL('../package.json', import.meta.url), 'utf8');
  return String((JSON.parse(text) as { version?: unknown }).version ?? 'unknown');
}

// Every error that ends a command becomes one line on stderr and a non-zero exit; a stack trace only
// with TIDINGS_DEBUG=1 (issue 12: a user's mistake never prints one).
function fail(error: unknown): never {
  const failure = describeFailure(error);
  if (failure.message !== undefined) process.stderr.write(`tidings: ${failure.message}\n`);
  if (failure.details !== undefined && process.env['TIDINGS_DEBUG'] === '1')
    process.stderr.write(`${failure.details}\n`);
  process.exit(failure.exitCode);
}

try {
  await main(process.argv);
} catch (error) {
  fail(error);
}
