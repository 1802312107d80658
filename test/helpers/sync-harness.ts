// Drives the sync APIs (Google Reader, Fever) the way the apps do: HTTP requests to the whole app in
// process, a real store, fixture feeds polled from a local server (test/microsub/harness.ts).
import { feverKey, setApiPassword } from '../../src/auth/api-credentials.js';
import type { Channel } from '../../src/model/stored.js';
import { type Harness, type HarnessOptions, openHarness } from '../microsub/harness.js';
import { rss } from './poll-harness.js';
import type { StoreBackend } from './temp-store.js';

export const API_USER = 'ann';
export const API_PASSWORD = 'correct horse battery';
export const FEVER_KEY = feverKey(API_USER, API_PASSWORD);

/** An RSS item first published `minute` minutes after 2026-02-01. */
export function rssItem(guid: string, minute: number) {
  return {
    guid,
    title: `Title ${guid}`,
    link: `https://example.com/${guid}`,
    description: `<p>Body of ${guid}</p>`,
    pubDate: new Date(Date.UTC(2026, 1, 1, 0, minute)).toUTCString(),
  };
}

export interface SyncHarness extends Harness {
  /** Serves an RSS document of these items at `path`. */
  serve(path: string, items: ReturnType<typeof rssItem>[]): void;
  /** Follows the feed at `path` in the channel named `channel` (created when new) and polls it. */
  follow(path: string, channel: string): Promise<{ feedId: number; channel: Channel }>;
  /** Entry ids of a feed, ascending. */
  entryIds(feedId: number): Promise<number[]>;
  /** The id of the entry with this guid. */
  idOf(feedId: number, guid: string): Promise<number>;
}

/** The Microsub harness with the API account set and helpers to follow fixture feeds. */
export async function openSyncHarness(
  backend: StoreBackend,
  options: HarnessOptions = {},
): Promise<SyncHarness> {
  const h = await openHarness(backend, options);
  await setApiPassword(h.store, API_USER, API_PASSWORD, { N: 1024 });
  return Object.assign(h, {
    serve(path: string, items: ReturnType<typeof rssItem>[]) {
      h.docs[path] = { body: rss(items), type: 'application/rss+xml' };
    },
    async follow(path: string, name: string) {
      const now = h.clock.now().toISOString();
      const channel =
        (await h.store.channels.list()).find((ch) => ch.name === name) ??
        (await h.store.channels.create(name));
      const feed = await h.store.feeds.add(h.url(path), now);
      await h.store.channels.subscribe(channel.id, feed.id, now).catch(() => undefined);
      await h.poll(h.url(path));
      return { feedId: feed.id, channel };
    },
    async entryIds(feedId: number) {
      const entries = await h.store.entries.listByFeed(feedId, 10_000);
      return entries.map((entry) => entry.id).sort((a, b) => a - b);
    },
    async idOf(feedId: number, guid: string) {
      const entries = await h.store.entries.listByFeed(feedId, 10_000);
      const entry = entries.find((e) => e.guid === guid);
      if (!entry) throw new Error(`sync-harness: no entry ${guid}`);
      return entry.id;
    },
  });
}
