import { CommanderError } from 'commander';
import { ConfigError } from '../config.js';
import { StoreError, storeFault } from '../store/index.js';
import { commanderExitCode, EXIT_FAILURE, UserError } from './user-error.js';

/** What the CLI prints for an error that ended a command (without the `tidings: ` prefix) and its exit code. */
export interface Failure {
  /** One line; undefined when the error was printed already (commander's usage errors). */
  message: string | undefined;
  exitCode: number;
  /** The stack trace, printed only with TIDINGS_DEBUG=1. */
  details?: string;
}

// Node's errors for a file or a socket, in words a user knows.
const SYSTEM_REASONS: Record<string, string> = {
  ENOENT: 'no such file or folder',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'is a folder, not a file',
  EEXIST: 'already exists',
  ENOTDIR: 'a part of the path is not a folder',
  ENOSPC: 'no space left on the device',
  EROFS: 'the file system is read-only',
  EADDRINUSE: 'the address is already in use',
  EADDRNOTAVAIL: 'the address is not one of this machine',
};

/** Turns the error that ended a command into one line and an exit code. */
export function describeFailure(error: unknown): Failure {
  if (error instanceof CommanderError) return { message: undefined, exitCode: commanderExitCode(error) };
  if (error instanceof UserError) return { message: error.message, exitCode: error.exitCode };
  if (error instanceof ConfigError) return { message: error.message, exitCode: EXIT_FAILURE };
  if (error instanceof StoreError) return { message: error.message, exitCode: EXIT_FAILURE };
  const system = systemFailure(error);
  if (system !== undefined) return { message: system, exitCode: EXIT_FAILURE };
  // a database that fails under a command (a full disk, a lost connection), not at its start
  const fault = storeFault(error, 'using the database');
  if (fault !== undefined) return { message: fault.message, exitCode: EXIT_FAILURE };
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const details = error instanceof Error ? error.stack : undefined;
  return {
    message: `unexpected error: ${firstLine(text)} (run with TIDINGS_DEBUG=1 for details)`,
    exitCode: EXIT_FAILURE,
    ...(details !== undefined ? { details } : {}),
  };
}

function systemFailure(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code, path, address, port } = error as NodeJS.ErrnoException & { address?: string; port?: number };
  if (typeof code !== 'string') return undefined;
  const reason = SYSTEM_REASONS[code];
  if (reason === undefined) return undefined;
  if (path !== undefined) return `${path}: ${reason}`;
  if (address !== undefined) return `${address}${port !== undefined ? `:${port}` : ''}: ${reason}`;
  return `${firstLine(error.message)}`;
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0] ?? text;
}
