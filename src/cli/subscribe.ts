import { redactSecrets } from '../log.js';
import type { StoredFeed } from '../model/index.js';
import {
  feedAsSeen,
  feedNamed,
  follow,
  type SubscriptionDeps,
  UNFOLLOWED_KEEP_DAYS,
  unfollow,
} from '../subscriptions/index.js';
import { type App, type PollingApp, withApp } from './app.js';
import { plural } from './plural.js';
import { UserError } from './user-error.js';

export interface AddOptions {
  channel?: string;
  also?: boolean;
  user?: string;
  database?: string;
}

export interface RemoveOptions {
  channel?: string;
  user?: string;
  database?: string;
}

/** `tidings add` (subscribe-command.ts defines it): follows the URL, fetches it, prints the answer. */
export async function runAdd(url: string, opts: AddOptions): Promise<void> {
  process.exitCode = await withApp(
    { database: opts.database, poller: true, user: { name: opts.user, command: 'add' } },
    (app) => addFeed(app, url, opts),
  );
}

/** `tidings remove` (subscribe-command.ts defines it). */
export async function runRemove(ref: string, opts: RemoveOptions): Promise<void> {
  process.exitCode = await withApp(
    { database: opts.database, poller: true, user: { name: opts.user, command: 'remove' } },
    (app) => removeFeed(app, ref, opts.channel),
  );
}

/** The module's dependencies for a CLI command. */
export function subscriptionDeps(app: PollingApp): SubscriptionDeps {
  return { store: app.store, poll: app.poll, now: () => new Date() };
}

/** Follows one URL through the subscriptions module and prints its answer; returns the exit code. */
async function addFeed(
  app: PollingApp,
  url: string,
  opts: { channel?: string; also?: boolean },
): Promise<number> {
  const result = await follow(subscriptionDeps(app), {
    url,
    ...(opts.channel !== undefined ? { channel: opts.channel } : {}),
    inAnotherChannel: opts.also === true,
  });
  const out = (line: string) => process.stdout.write(`${line}\n`);
  switch (result.kind) {
    case 'refused':
      throw new UserError(`add: ${result.message.replace(/^follow: /, '')}`);
    case 'already':
      out(
        `add: feed ${result.feed.id} ${redactSecrets(result.feed.url)} is already followed in ${result.channel.name}; nothing changed`,
      );
      return 0;
    case 'elsewhere': {
      const names = result.channels.map((c) => c.name).join(', ');
      out(
        `add: feed ${result.feed.id} ${redactSecrets(result.feed.url)} is already followed in ${names}; nothing changed. Use --channel NAME --also to follow it in another channel too, or \`tidings feed ${result.feed.id} --move-to NAME\``,
      );
      return 0;
    }
    case 'followed': {
      if (result.page)
        process.stderr.write(
          `add: ${result.page} is a web page; following its feed ${redactSecrets(result.feed.url)}\n`,
        );
      const { firstFetch: first, feed } = result;
      const resumed = result.resumed ? ' (resumed with its history)' : '';
      // a feed someone else follows already has its entries: the person gets those, not only new ones
      const [ref] = await app.store.channels.listSubscriptionRefs({
        channelId: result.channel.id,
        feedIds: [feed.id],
      });
      const entries = Math.max(first.newEntries, ref?.unread ?? 0);
      out(
        `added feed ${feed.id} ${redactSecrets(feed.url)} to ${result.channel.name}${resumed}: ${first.status ?? 'not polled'}, ${plural(entries, 'entry', 'entries')}`,
      );
      if (first.message) out(`  ${first.message}`);
      return 0;
    }
  }
}

async function removeFeed(app: PollingApp, ref: string, channel: string | undefined): Promise<number> {
  const feed = await findFeed(app, ref);
  if (!feed) throw new UserError(`remove: no feed ${ref} (tidings status lists the feeds)`);
  const result = await unfollow(subscriptionDeps(app), {
    feedId: feed.id,
    ...(channel !== undefined ? { channel } : {}),
  });
  if (result.kind === 'not-found')
    throw new UserError(`remove: ${result.message.replace(/^unfollow: /, '')}`);
  const where = result.channels.map((c) => c.name).join(', ');
  const after = result.unfollowed
    ? `; no channel follows it now: it is no longer polled, and forgotten after ${UNFOLLOWED_KEEP_DAYS} days`
    : '';
  process.stdout.write(`unfollowed feed ${feed.id} ${redactSecrets(feed.url)} in ${where}${after}\n`);
  return 0;
}

/**
 * A feed by id, or by a URL that names it (feed, first followed, site), as the command's user sees it:
 * one they follow (with their title and pause), or any feed for an admin.
 */
export async function findFeed(app: App, ref: string): Promise<StoredFeed | undefined> {
  const feed = /^\d+$/.test(ref) ? await app.store.feeds.get(Number(ref)) : await feedNamed(app.store, ref);
  return feed && feedAsSeen(app.store, feed.id, { isAdmin: app.user?.isAdmin ?? true });
}
