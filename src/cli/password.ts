import type { Command } from 'commander';
import { hashPassword, PASSWORD_SETTING, SESSIONS_NOT_BEFORE_SETTING } from '../auth/index.js';
import type { Store } from '../store/index.js';
import { withApp } from './app.js';
import { UserError } from './user-error.js';

const MIN_LENGTH = 8;

/** `tidings password`: sets the owner's password for the web interface. */
export function registerPassword(program: Command): void {
  program
    .command('password')
    .description(
      'set the password of the web interface (read from stdin when it is not a terminal, else asked twice)',
    )
    .option('--database <url>', 'sqlite:PATH or postgres://... (default: TIDINGS_DATABASE_URL)')
    .action(async (opts: { database?: string }) => {
      const password = process.stdin.isTTY ? await askTwice() : passwordFromInput(await readStdin());
      const problem = password === undefined ? 'the two passwords differ' : checkPassword(password);
      if (problem || password === undefined) throw new UserError(`password: ${problem}; nothing changed`);
      await withApp({ database: opts.database }, (app) => setOwnerPassword(app.store, password, new Date()));
      process.stdout.write('password set; every earlier web session is signed out\n');
    });
}

/** Stores the scrypt hash of the password and signs out every session started before `now`. */
export async function setOwnerPassword(store: Store, password: string, now: Date): Promise<void> {
  await store.accounts.setSetting(PASSWORD_SETTING, await hashPassword(password));
  await store.accounts.setSetting(SESSIONS_NOT_BEFORE_SETTING, String(now.getTime()));
}

/** What is wrong with a password, or undefined when it will do. */
export function checkPassword(password: string): string | undefined {
  if (password.length < MIN_LENGTH) return `use at least ${MIN_LENGTH} characters`;
  return undefined;
}

/** The password piped in: the input without its final line break (`echo` adds one). */
export function passwordFromInput(text: string): string {
  return text.replace(/\r?\n$/, '');
}

export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Asks twice without echo; undefined when the two answers differ. */
export async function askTwice(): Promise<string | undefined> {
  const first = await askHidden('New password: ');
  const second = await askHidden('Again: ');
  return first === second ? first : undefined;
}

// Raw mode reads key by key, so nothing is echoed; Backspace edits, Ctrl-C and Ctrl-D give up.
function askHidden(question: string): Promise<string> {
  const stdin = process.stdin;
  process.stderr.write(question);
  stdin.setRawMode(true);
  stdin.setEncoding('utf8');
  stdin.resume();
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = (error?: Error) => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n') return finish();
        if (ch === '\u0003' || ch === '\u0004') return finish(new Error('password: cancelled'));
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else if (ch >= ' ') value += ch;
      }
    };
    stdin.on('data', onData);
  });
}
