import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { registerApiPassword } from './api-password-command.js';
import { registerDoctor } from './doctor-command.js';
import type { Failure } from './failure.js';
import { registerFeed } from './feed-command.js';
import { registerHealthcheck } from './healthcheck-command.js';
import { registerNotify } from './notify-command.js';
import { registerOpml } from './opml-command.js';
import { registerParse } from './parse-command.js';
import { registerPassword } from './password-command.js';
import { registerPoll } from './poll-command.js';
import { registerRule } from './rule-command.js';
import { registerServe } from './serve-command.js';
import { registerStatus } from './status-command.js';
import { registerSubscribe } from './subscribe-command.js';
import { registerToken } from './token-command.js';
import { registerUser } from './user-command.js';
import { commanderExitCode } from './user-error.js';

/**
 * The `tidings` command line: each command is defined (name, arguments, options, help) in
 * src/cli/NAME-command.ts, whose action imports src/cli/NAME.ts, the command's work, when it runs. So the
 * CLI starts, prints its help and refuses a mistaken option without loading the store, the poller or the
 * server (0.1 s instead of 0.5; test/cli-start.test.ts keeps it so). In the bundle (dist/cli.js,
 * scripts/bundle.mjs) those modules are in the file, but run only when a command's action imports them.
 */
export function createProgram(): Command {
  const program = new Command();
  program
    .name('tidings')
    .description('A self-hosted feed reader that tells you precisely when something is wrong.')
    .version(packageVersion(), '-V, --version', 'print the version of tidings')
    // commander throws instead of exiting (the subcommands inherit it): runCommand picks the exit code
    .exitOverride();
  registerParse(program);
  registerSubscribe(program);
  registerFeed(program);
  registerPoll(program);
  registerStatus(program);
  registerOpml(program);
  registerServe(program);
  registerHealthcheck(program);
  registerPassword(program);
  registerApiPassword(program);
  registerToken(program);
  registerUser(program);
  registerNotify(program);
  registerRule(program);
  registerDoctor(program);
  oneLineErrors(program, []);
  return program;
}

/**
 * commander's own mistakes (an unknown option, a missing argument, an unknown command) in the CLI's one
 * line, `tidings: add: missing required argument 'url' (see tidings add --help)`, instead of `error: ...`
 * and the whole help (issue 22: a user's mistake is one line starting `tidings:`).
 */
function oneLineErrors(command: Command, path: string[]): void {
  const name = path.join(' ');
  command.configureOutput({
    // the whole help on stderr is commander's answer to a command given without its subcommand
    // (`tidings`, `tidings user`): one line instead, naming where the help is
    writeErr: (text) => {
      process.stderr.write(
        text.startsWith('Usage:')
          ? `tidings: ${name ? `${name}: ` : ''}missing command (see tidings${name ? ` ${name}` : ''} --help)\n`
          : text,
      );
    },
    outputError: (text, write) => {
      const message = text
        .replace(/^error: /, '')
        .replace(/\s*\n\s*/g, ' ')
        .trim();
      write(`tidings: ${name ? `${name}: ` : ''}${message} (see tidings${name ? ` ${name}` : ''} --help)\n`);
    },
  });
  for (const sub of command.commands) oneLineErrors(sub, [...path, sub.name()]);
}

/** The version in package.json (src/cli/ and dist/cli/ both sit two folders below it). */
function packageVersion(): string {
  const text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
  return String((JSON.parse(text) as { version?: unknown }).version ?? 'unknown');
}

/** How a command ended: its exit code, and whether an error ended it (the process should exit at once). */
export interface CommandEnd {
  exitCode: number;
  failed: boolean;
}

/**
 * Runs one command line. Every error that ends a command becomes one line on stderr, `tidings: ...`, and
 * a non-zero exit; a stack trace only with TIDINGS_DEBUG=1 (issue 12: a user's mistake never prints one).
 */
export async function runCommand(argv: string[]): Promise<CommandEnd> {
  try {
    await createProgram().parseAsync(argv);
    const code = Number(process.exitCode ?? 0);
    return { exitCode: Number.isFinite(code) ? code : 1, failed: false };
  } catch (error) {
    // commander's own ending (help, version, a usage mistake it has printed) is told without failure.ts,
    // which loads the store
    const failure: Failure =
      error instanceof CommanderError
        ? { message: undefined, exitCode: commanderExitCode(error) }
        : (await import('./failure.js')).describeFailure(error);
    if (failure.message !== undefined) process.stderr.write(`tidings: ${failure.message}\n`);
    if (failure.details !== undefined && process.env['TIDINGS_DEBUG'] === '1')
      process.stderr.write(`${failure.details}\n`);
    return { exitCode: failure.exitCode, failed: true };
  }
}
