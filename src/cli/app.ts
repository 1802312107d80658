import { type Config, loadConfig } from '../config.js';
import { createLogger, type Logger, silentLogger } from '../log.js';
import type { Metrics } from '../metrics/index.js';
import type { PollDeps, PollEvents, PollHooks, Preparer } from '../poll/index.js';
import type { Store } from '../store/index.js';
import { type EventRelay, openEventRelay, openStore, redactPassword, storeFault } from '../store/index.js';
import { type ActingUser, actingUser } from './user-option.js';

/**
 * What most commands work with: the configuration, the migrated store. A command that works on one
 * person's data (AppOptions.user) gets that user's store; `instance` is the whole instance's either way.
 */
export interface App {
  config: Config;
  /** The store of the user the command acts for (the first user's for instance-wide commands). */
  store: Store;
  /** The whole instance's store: users, and what no one user owns. */
  instance: Store;
  /** The user the command acts for, when it acts for one (AppOptions.user). */
  user?: ActingUser;
  log: Logger;
  close(): Promise<void>;
}

/** An app of a command that polls, fetches feeds or sends alerts (AppOptions.poller). */
export interface PollingApp extends App {
  poll: PollDeps;
  /** What the poller stored, relayed between the processes of a PostgreSQL database (with `events`). */
  events: PollEvents;
  /**
   * This process's metrics, for `/metrics` (TIDINGS_METRICS=true, under `serve`): its polls counted
   * through the poller's hooks. Undefined otherwise.
   */
  metrics?: Metrics;
}

export interface AppOptions {
  database?: string | undefined;
  /**
   * The command polls, fetches feeds or sends alerts: the poller, the parser's threads and the HTTP
   * client are loaded (PollingApp). Other commands start without them (about a third of a CLI start).
   */
  poller?: boolean;
  /** Write structured logs to stderr (serve, worker); other commands keep stderr for progress. */
  logs?: boolean;
  hooks?: PollHooks;
  /** The command polls: start the parse threads first, so that they load while the store opens. */
  polls?: boolean;
  /**
   * Announce what polls store to every process of the database (serve, worker): on PostgreSQL through
   * LISTEN/NOTIFY; on SQLite only within this process.
   */
  events?: boolean;
  /** The command serves HTTP: SQLite reads go to read threads (TIDINGS_READ_THREADS), off the event loop. */
  serves?: boolean;
  /**
   * The command reads or changes one person's data: `--user NAME`, which may be left out while the
   * instance has one user (or none yet); `command` names the command in the messages.
   */
  user?: { name: string | undefined; command: string };
  /** WebSub (issue 26): subscribe to the hubs of polled feeds when TIDINGS_BASE_URL is set (serve, worker). */
  push?: boolean;
  /**
   * With `events`: makes the relay to announce through when the database has none of its own (SQLite:
   * the processes of `serve --processes N` relay through their primary). Closed with the app.
   */
  fallbackRelay?: () => EventRelay;
}

/** Read threads when none are configured: two keep one slow query from holding the others back. */
const DEFAULT_READ_THREADS = 2;

/** Opens the store named by --database or TIDINGS_DATABASE_URL and runs its migrations. */
export async function openApp(options: AppOptions & { poller: true }): Promise<PollingApp>;
export async function openApp(options?: AppOptions): Promise<App>;
export async function openApp(options: AppOptions = {}): Promise<App | PollingApp> {
  const config = loadConfig(process.env, { databaseUrl: options.database });
  const log = options.logs ? createLogger() : silentLogger;
  const polling = options.poller ? await import('../poll/index.js') : undefined;
  const preparer: Preparer | undefined = polling?.createPreparer(config.parseWorkers, config.parseTimeoutMs);
  if (options.polls) preparer?.warmUp?.();
  let store: Store;
  try {
    store = await openStore(config.databaseUrl, {
      readThreads: options.serves ? (config.readThreads ?? DEFAULT_READ_THREADS) : 0,
    });
  } catch (error) {
    await preparer?.close();
    throw error;
  }
  try {
    await store.migrate();
  } catch (error) {
    await preparer?.close();
    await store.close().catch(() => undefined);
    // a read-only database file, a full disk: one message, not the driver's stack
    throw storeFault(error, `preparing the database ${redactPassword(config.databaseUrl)}`) ?? error;
  }
  let relay: EventRelay | undefined;
  try {
    if (options.events)
      relay =
        (await openEventRelay(config.databaseUrl, (err) => log.warn({ err }, 'events: relay connection'))) ??
        options.fallbackRelay?.();
  } catch (error) {
    await preparer?.close();
    await store.close().catch(() => undefined);
    throw storeFault(error, `listening for events on ${redactPassword(config.databaseUrl)}`) ?? error;
  }
  let acting: ActingUser | undefined;
  try {
    if (options.user) acting = await actingUser(store, options.user.name, options.user.command);
  } catch (error) {
    await preparer?.close();
    await relay?.close();
    await store.close().catch(() => undefined);
    throw error;
  }
  const app: App = {
    config,
    store: acting ? store.forUser(acting.id) : store,
    instance: store,
    ...(acting ? { user: acting } : {}),
    log,
    async close() {
      await relay?.close();
      await store.close();
    },
  };
  if (polling === undefined || preparer === undefined) return app;
  const events = new polling.PollEvents(relay, (err) =>
    log.warn({ err }, 'events: an announcement was not relayed'),
  );
  // the process that serves /metrics counts its own polls (serve; not `serve --no-poller`'s workers)
  // prom-client is loaded only then: every other command starts without it
  const metrics =
    options.serves && config.metrics === true
      ? new (await import('../metrics/index.js')).Metrics({ store, now: () => new Date() })
      : undefined;
  const hooks = polling.combineHooks(
    ...(options.hooks ? [options.hooks] : options.events ? [events.hooks()] : []),
    ...(metrics ? [metrics.pollHooks()] : []),
  );
  const poll = polling.createPollDeps(store, config, log, hooks, preparer);
  if (options.push && config.baseUrl !== undefined) poll.push = new polling.WebSub(poll, config.baseUrl);
  return {
    ...app,
    poll,
    events,
    ...(metrics ? { metrics } : {}),
    async close() {
      // icon lookups still under way are cancelled (poll --once's end, serve's SIGTERM, a worker's stop)
      await poll.icons?.close();
      // requests to hubs and deliveries under way end (each is bounded by the fetch timeout)
      await poll.push?.idle();
      await relay?.close();
      await poll.preparer.close();
      await store.close();
      await (await import('../fetch/index.js')).closeSharedAgents();
    },
  };
}

/** Runs a command body with an open app and closes it after, whatever happens. */
export async function withApp<T>(
  options: AppOptions & { poller: true },
  body: (app: PollingApp) => Promise<T>,
): Promise<T>;
export async function withApp<T>(options: AppOptions, body: (app: App) => Promise<T>): Promise<T>;
export async function withApp<T>(options: AppOptions, body: (app: PollingApp) => Promise<T>): Promise<T> {
  const app = (await openApp(options)) as PollingApp;
  try {
    return await body(app);
  } finally {
    await app.close();
  }
}
