#!/usr/bin/env node
import { Command } from 'commander';
import { registerParse } from './cli/parse.js';

/** The `tidings` command line: one subcommand per file in src/cli/. */
function main(argv: string[]): Promise<void> | void {
  const program = new Command();
  program
    .name('tidings')
    .description('A self-hosted feed reader that tells you precisely when something is wrong.')
    .showHelpAfterError();
  registerParse(program);
  return program.parseAsync(argv).then(() => undefined);
}

await main(process.argv);
