import { parseInterval } from '../config.js';
import { redactSecrets } from '../log.js';
import type { StoredFeed } from '../model/index.js';
import { channelsFollowing, type FeedSettings, move, updateFeedSettings } from '../subscriptions/index.js';
import { type App, type PollingApp, withApp } from './app.js';
import { findFeed, subscriptionDeps } from './subscribe.js';
import { EXIT_FAILURE, EXIT_USAGE, UserError } from './user-error.js';

export interface FeedOptions {
  title?: string;
  url?: string;
  interval?: string;
  userAgent?: string;
  pause?: boolean;
  resume?: boolean;
  moveTo?: string;
  user?: string;
  database?: string;
}

/** `tidings feed` (feed-command.ts defines it): shows a feed's settings, or changes them. */
export async function runFeed(ref: string, opts: FeedOptions): Promise<void> {
  process.exitCode = await withApp(
    { database: opts.database, poller: true, user: { name: opts.user, command: 'feed' } },
    (app) => feedCommand(app, ref, opts),
  );
}

async function feedCommand(app: PollingApp, ref: string, opts: FeedOptions): Promise<number> {
  const fail = (message: string, exitCode = EXIT_FAILURE): never => {
    throw new UserError(message, { exitCode });
  };
  const found = await findFeed(app, ref);
  if (!found) return fail(`feed: no feed ${ref}`);
  if (opts.pause && opts.resume) return fail('feed: --pause and --resume contradict each other', EXIT_USAGE);
  const settings = settingsOf(opts);
  if (typeof settings === 'string') return fail(settings, EXIT_USAGE);
  const deps = subscriptionDeps(app);
  let feed = found;
  if (Object.keys(settings).length > 0) {
    const result = await updateFeedSettings(deps, found.id, settings, { isAdmin: app.user?.isAdmin ?? true });
    // a value that cannot be used is the command line's mistake (exit 2), as --port abc is
    const usage = result.kind === 'refused' && BAD_VALUES.has(result.reason);
    if (result.kind !== 'updated') return fail(result.message, usage ? EXIT_USAGE : EXIT_FAILURE);
    feed = result.feed;
  }
  if (opts.moveTo !== undefined) {
    const moved = await move(deps, { feedId: feed.id, to: opts.moveTo });
    if (moved.kind !== 'moved') return fail(moved.message);
  }
  await printSettings(app, feed);
  return 0;
}

const BAD_VALUES = new Set(['bad-url', 'bad-interval', 'bad-user-agent']);

/** The settings the options ask for, or a message saying what is wrong. */
function settingsOf(opts: FeedOptions): FeedSettings | string {
  const settings: FeedSettings = {};
  if (opts.title !== undefined) settings.title = opts.title.trim() || null;
  if (opts.url !== undefined) settings.url = opts.url;
  if (opts.userAgent !== undefined) settings.userAgent = opts.userAgent.trim() || null;
  if (opts.pause) settings.paused = true;
  if (opts.resume) settings.paused = false;
  if (opts.interval !== undefined) {
    if (opts.interval === 'default') settings.pollIntervalSeconds = null;
    else {
      try {
        settings.pollIntervalSeconds = parseInterval(opts.interval);
      } catch {
        return `feed: cannot read the interval "${opts.interval}" (use e.g. 15m, 2h, 1d)`;
      }
    }
  }
  return settings;
}

async function printSettings(app: App, feed: StoredFeed): Promise<void> {
  const channels = await channelsFollowing(app.store, feed.id);
  const interval = feed.pollIntervalSeconds;
  const lines = [
    `feed ${feed.id}`,
    `  url:        ${redactSecrets(feed.url)}${feed.originalUrl !== feed.url ? ` (first followed as ${redactSecrets(feed.originalUrl)})` : ''}`,
    `  title:      ${feed.title ?? '-'}${feed.customTitle && (channels.length > 0 || feed.unfollowedAt) ? ' (yours)' : ''}`,
    `  channels:   ${channels.map((c) => c.name).join(', ') || (feed.unfollowedAt ? `none (unfollowed ${feed.unfollowedAt})` : 'none of yours')}`,
    `  interval:   ${interval === undefined ? `default (${describeInterval(app.config.pollIntervalSeconds)})` : describeInterval(interval)}`,
    `  user agent: ${feed.userAgent ?? 'default'}`,
    `  paused:     ${feed.paused ? 'yes' : 'no'}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** Seconds as a person reads them: `15 min`, `2 h`, `1 min 1 s`. */
export function describeInterval(seconds: number): string {
  const whole = Math.round(seconds);
  if (whole % 3600 === 0 && whole > 0) return `${whole / 3600} h`;
  if (whole % 60 === 0 && whole > 0) return `${whole / 60} min`;
  return whole > 60 ? `${Math.floor(whole / 60)} min ${whole % 60} s` : `${whole} s`;
}
