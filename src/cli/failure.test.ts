import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CommanderError } from 'commander';
import { ConfigError } from '../config.js';
import { StoreError } from '../store/index.js';
import { describeFailure } from './failure.js';
import { UserError } from './user-error.js';

function errno(code: string, message: string, fields: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(message), { code, ...fields });
}

describe('describeFailure', () => {
  it('keeps the message and exit code of a UserError, and exits 2 for commander usage errors', () => {
    assert.deepEqual(describeFailure(new UserError('serve: bad port', { exitCode: 2 })), {
      message: 'serve: bad port',
      exitCode: 2,
    });
    const usage = new CommanderError(1, 'commander.unknownOption', "error: unknown option '--x'");
    assert.deepEqual(describeFailure(usage), { message: undefined, exitCode: 2 });
    const help = new CommanderError(0, 'commander.helpDisplayed', '(outputHelp)');
    assert.equal(describeFailure(help).exitCode, 0);
  });

  it('prints configuration and store errors as they are', () => {
    assert.equal(describeFailure(new ConfigError('X', 'config: X is bad')).message, 'config: X is bad');
    assert.equal(describeFailure(new StoreError('config', 'store: no mysql')).message, 'store: no mysql');
  });

  it('names the file of a file error, and says what a full disk under a command is', () => {
    const missing = errno('ENOENT', "ENOENT: no such file or directory, open 'a.opml'", { path: 'a.opml' });
    assert.equal(describeFailure(missing).message, 'a.opml: no such file or folder');
    const full = Object.assign(new Error('database or disk is full'), {
      name: 'SqliteError',
      code: 'SQLITE_FULL',
    });
    assert.equal(
      describeFailure(full).message,
      'store: using the database failed: database or disk is full (SQLITE_FULL)',
    );
  });

  it('gives an unexpected error one line pointing at TIDINGS_DEBUG, and keeps its stack apart', () => {
    const failure = describeFailure(new TypeError('x is not a function\nsecond line'));
    assert.equal(
      failure.message,
      'unexpected error: TypeError: x is not a function (run with TIDINGS_DEBUG=1 for details)',
    );
    assert.match(failure.details ?? '', /^TypeError: x is not a function\n[\s\S]*\n\s+at /);
    assert.equal(failure.exitCode, 1);
  });
});
