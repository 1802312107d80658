import type { CommanderError } from 'commander';

/** Exit codes of the command line: 1 when a command failed, 2 when its command line cannot be used. */
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/**
 * A failure the user can act on (a bad option value, a missing file, a port in use): the CLI prints its
 * one-line message after `tidings: ` and exits with `exitCode`, never with a stack trace.
 */
export class UserError extends Error {
  readonly exitCode: number;

  constructor(message: string, options: { exitCode?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'UserError';
    this.exitCode = options.exitCode ?? EXIT_FAILURE;
  }
}

/** The exit code of commander's own ending: 0 after --help or --version, 2 for a usage mistake it printed. */
export function commanderExitCode(error: CommanderError): number {
  return error.exitCode === 0 ? 0 : EXIT_USAGE;
}
