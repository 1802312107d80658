import { checkNewPassword, setUserPassword } from '../auth/index.js';
import { withApp } from './app.js';
import { UserError } from './user-error.js';
import { passwordUser } from './user-option.js';

/** `tidings password` (password-command.ts defines it): sets a user's password for the web interface. */
export async function runPassword(opts: { user?: string; database?: string }): Promise<void> {
  const password = process.stdin.isTTY ? await askTwice() : passwordFromInput(await readStdin());
  const problem = password === undefined ? 'the two passwords differ' : checkPassword(password);
  if (problem || password === undefined) throw new UserError(`password: ${problem}; nothing changed`);
  const name = await withApp({ database: opts.database }, async (app) => {
    const user = await passwordUser(app.store, opts.user, 'password');
    await setUserPassword(app.store.forUser(user.id), password, new Date());
    return user.name;
  });
  process.stdout.write(`password set for ${name}; every earlier web session of ${name} is signed out\n`);
}

/** What is wrong with a password, or undefined when it will do (the web's rule: src/auth). */
export function checkPassword(password: string): string | undefined {
  return checkNewPassword(password);
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
