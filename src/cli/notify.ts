import {
  checkDestination,
  DestinationInputError,
  OutboxSender,
  sendTest,
  shownTarget,
} from '../notify/index.js';
import type { NewDestination, StoredDestination } from '../store/index.js';
import { type App, type PollingApp, withApp } from './app.js';
import { EXIT_USAGE, UserError } from './user-error.js';

export interface AddOptions {
  secret?: string;
  events?: string;
  digest?: string;
  user?: string;
  database?: string;
}

export interface CommonOptions {
  user?: string;
  database?: string;
}

/** `tidings notify add` (notify-command.ts defines it). */
export async function runNotifyAdd(kind: string, target: string, opts: AddOptions): Promise<void> {
  const destination = parseDestination(kind, target, opts);
  process.exitCode = await withApp(
    { database: opts.database, user: { name: opts.user, command: 'notify add' } },
    (app) => addDestination(app, destination, opts.secret === undefined && destination.kind === 'webhook'),
  );
}

/** `tidings notify list` (notify-command.ts defines it). */
export async function runNotifyList(opts: CommonOptions & { json?: boolean }): Promise<void> {
  process.exitCode = await withApp(
    { database: opts.database, user: { name: opts.user, command: 'notify list' } },
    (app) => listDestinations(app, opts.json === true),
  );
}

/** `tidings notify remove` (notify-command.ts defines it). */
export async function runNotifyRemove(id: string, opts: CommonOptions): Promise<void> {
  const destinationId = parseId('notify remove', id);
  process.exitCode = await withApp(
    { database: opts.database, user: { name: opts.user, command: 'notify remove' } },
    async (app) => {
      if (!(await app.store.notify.remove(destinationId))) throw noSuchDestination('notify remove', id);
      process.stdout.write(`removed destination ${destinationId}\n`);
      return 0;
    },
  );
}

/** `tidings notify test` (notify-command.ts defines it). */
export async function runNotifyTest(id: string, opts: CommonOptions): Promise<void> {
  const destinationId = parseId('notify test', id);
  process.exitCode = await withApp(
    { database: opts.database, poller: true, user: { name: opts.user, command: 'notify test' } },
    (app) => testDestination(app, destinationId, id),
  );
}

/** The destination the command line describes; a mistake is one line and exit 2. */
export function parseDestination(kind: string, target: string, opts: AddOptions): NewDestination {
  try {
    return checkDestination(
      {
        kind,
        target,
        secret: opts.secret,
        digest: opts.digest,
        ...(opts.events !== undefined ? { events: eventNames(opts.events) } : {}),
      },
      { secret: '--secret', events: '--events', digest: '--digest' },
    );
  } catch (error) {
    if (!(error instanceof DestinationInputError)) throw error;
    throw new UserError(`notify add: ${error.message}`, { exitCode: EXIT_USAGE });
  }
}

/** `feed.failing,feed.recovered` (or with spaces) as names; checkDestination says which are unknown. */
function eventNames(list: string): string[] {
  return list
    .split(/[\s,]+/)
    .map((name) => name.trim())
    .filter((name) => name !== '');
}

function parseId(command: string, id: string): number {
  const n = /^\d{1,15}$/.test(id) ? Number(id) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1)
    throw new UserError(
      `${command}: ${JSON.stringify(id)} is not a destination id (tidings notify list shows them)`,
      {
        exitCode: EXIT_USAGE,
      },
    );
  return n;
}

function noSuchDestination(command: string, id: string): UserError {
  return new UserError(`${command}: no destination ${id} (tidings notify list shows them)`);
}

async function addDestination(
  app: App,
  destination: NewDestination,
  generatedSecret: boolean,
): Promise<number> {
  const stored = await app.store.notify.add(destination, new Date().toISOString());
  const whose = app.user ? ` for ${app.user.name}` : '';
  process.stdout.write(`added destination ${stored.id}${whose}: ${describe(stored)}\n`);
  if (stored.kind === 'email' && app.config.smtpUrl === undefined)
    process.stderr.write(
      'notify: TIDINGS_SMTP_URL is not set: emails wait until tidings has a mail server\n',
    );
  if (generatedSecret && stored.secret !== undefined) {
    process.stderr.write(
      'notify: keep this secret now (notify list does not show it): the receiver checks X-Tidings-Signature with it\n',
    );
    process.stdout.write(`secret: ${stored.secret}\n`);
  }
  return 0;
}

/** `webhook https://... (feed.failing, feed.recovered)`. */
function describe(destination: StoredDestination): string {
  const events = destination.events === undefined ? 'every event' : destination.events.join(', ');
  const digest = destination.digest === undefined ? '' : `, ${destination.digest} digest`;
  return `${destination.kind} ${shownTarget(destination)} (${events}${digest})`;
}

async function listDestinations(app: App, json: boolean): Promise<number> {
  const destinations = await app.store.notify.list();
  const rows = await Promise.all(
    destinations.map(async (destination) => ({
      destination,
      counts: await app.store.notify.counts(destination.id),
    })),
  );
  if (json) {
    const list = rows.map(({ destination, counts }) => ({
      id: destination.id,
      kind: destination.kind,
      target: shownTarget(destination),
      events: destination.events ?? null,
      digest: destination.digest ?? null,
      signed: destination.secret !== undefined,
      createdAt: destination.createdAt,
      lastOkAt: destination.lastOkAt ?? null,
      failingSince: destination.failingSince ?? null,
      lastError: destination.lastError ?? null,
      lastErrorAt: destination.lastErrorAt ?? null,
      ...counts,
    }));
    process.stdout.write(`${JSON.stringify({ destinations: list }, null, 2)}\n`);
    return 0;
  }
  if (rows.length === 0) {
    process.stdout.write('no destinations yet: tidings notify add webhook|email|ntfy ...\n');
    return 0;
  }
  for (const row of rows) {
    const { destination, counts } = row;
    process.stdout.write(`${destination.id}  ${describe(destination)}\n`);
    process.stdout.write(
      `    ${health(destination)}; ${counts.sent} sent, ${counts.pending} waiting, ${counts.failed} given up\n`,
    );
    if (destination.lastError !== undefined && destination.failingSince !== undefined)
      process.stdout.write(`    last error (${day(destination.lastErrorAt)}): ${destination.lastError}\n`);
  }
  return 0;
}

function health(destination: StoredDestination): string {
  if (destination.failingSince !== undefined) return `FAILING since ${day(destination.failingSince)}`;
  if (destination.lastOkAt !== undefined) return `working (last sent ${day(destination.lastOkAt)})`;
  return 'nothing sent yet';
}

function day(iso: string | undefined): string {
  return iso === undefined ? '-' : `${iso.slice(0, 16).replace('T', ' ')} UTC`;
}

/** Sends a test message through the destination now; prints its answer, or fails with it in one line. */
async function testDestination(app: PollingApp, destinationId: number, id: string): Promise<number> {
  const destination = await app.store.notify.get(destinationId);
  if (destination === undefined) throw noSuchDestination('notify test', id);
  const sender = new OutboxSender({
    store: app.instance,
    config: app.config,
    log: app.log,
    now: () => new Date(),
    workerId: app.poll.workerId,
  });
  try {
    const result = await sendTest(app.store, destination, sender.context, new Date());
    if (result.error !== undefined) throw new UserError(`notify test: ${result.error}`);
    process.stdout.write(
      `destination ${destination.id} (${destination.kind} ${destination.target}) answered: ${result.delivered?.answer ?? ''}\n`,
    );
    return 0;
  } finally {
    sender.close();
  }
}
