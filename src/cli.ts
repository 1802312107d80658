#!/usr/bin/env node
import { Command } from 'commander';
import { registerDoctor } from './cli/doctor.js';
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
    .showHelpAfterError();
  registerParse(program);
  registerSubscribe(program);
  registerPoll(program);
  registerStatus(program);
  registerOpml(program);
  registerServe(program);
  registerPassword(program);
  registerToken(program);
  registerDoctor(program);
  return program.parseAsync(argv).then(() => undefined);
}

await main(process.argv);
