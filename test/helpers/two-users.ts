// Two people on one tidings (issue 24), for the isolation tests of the Microsub, Google Reader and Fever
// front ends: ann (user 1, the admin) and bob each follow a feed of their own and one shared feed, with
// their own channels, read and saved state, rules, Microsub token and app password. Everything of bob's
// that ann must never see carries the marker BOBONLY (feed title, site, entry titles, channel name, his
// own title of the shared feed, his rules), so that an answer can be searched for it.
import { feverKey, setApiPassword } from '../../src/auth/api-credentials.js';
import { longItemId } from '../../src/greader/ids.js';
import type { Channel } from '../../src/model/stored.js';
import { hashToken, newToken, type Store } from '../../src/store/index.js';
import type { HarnessOptions } from '../microsub/harness.js';
import { openSyncHarness, type SyncHarness } from './sync-harness.js';
import type { StoreBackend } from './temp-store.js';

/** What an answer given to ann must never contain (compared case aside). */
export const BOB_MARKER = 'bobonly';

export const PNG = Uint8Array.from([137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13]);

/** One of the two people, with what the tests need of theirs. */
export interface Person {
  id: number;
  name: string;
  /** The store acting as them (Store.forUser). */
  store: Store;
  /** A Microsub token with every scope. */
  token: string;
  appPassword: string;
  feverKey: string;
  /** Their channel, which follows their own feed and the shared one. */
  channel: Channel;
  /** The feed only they follow. */
  ownFeed: { id: number; url: string };
  /** Entry ids of their own feed, ascending. */
  ownEntries: number[];
}

export interface TwoUsers {
  h: SyncHarness;
  ann: Person;
  bob: Person;
  shared: { id: number; url: string; entries: number[] };
}

/** An RSS document with its own title and site, whose items are titled `${prefix} entry N`. */
function feedXml(title: string, site: string, prefix: string, count: number): string {
  const items = Array.from({ length: count }, (_, i) => {
    const n = i + 1;
    const date = new Date(Date.UTC(2026, 1, 1, 0, n)).toUTCString();
    return `<item><guid isPermaLink="false">${prefix}-${n}</guid><title>${prefix} entry ${n}</title><link>${site}${prefix}-${n}</link><description>Body of ${prefix} ${n}</description><author>x@example.com (${prefix} author)</author><pubDate>${date}</pubDate></item>`;
  });
  return `<?xml version="1.0" encoding="utf-8"?>\n<rss version="2.0"><channel><title>${title}</title><link>${site}</link>\n${items.join('\n')}\n</channel></rss>\n`;
}

/** A token with every scope for the store's user. */
async function tokenOf(store: Store, now: string): Promise<string> {
  const token = newToken();
  await store.accounts.createToken(
    { tokenHash: hashToken(token), scope: 'read follow mute block channels' },
    now,
  );
  return token;
}

/**
 * Opens the sync harness (the whole app in process) with ann and bob set up as the header says. The
 * harness's own token and app account (user 1's) are ann's.
 */
export async function openTwoUsers(backend: StoreBackend, options: HarnessOptions = {}): Promise<TwoUsers> {
  const h = await openSyncHarness(backend, options);
  const now = () => h.clock.now().toISOString();
  // the first user takes over user 1, who holds the harness's token and app account
  const annUser = await h.store.users.add({ name: 'ann', isAdmin: true }, now());
  const bobUser = await h.store.users.add({ name: 'bob', isAdmin: false }, now());
  const annStore = h.store.forUser(annUser.id);
  const bobStore = h.store.forUser(bobUser.id);
  await setApiPassword(bobStore, 'bob', 'bob app password', { N: 1024 });

  h.docs['/ann-feed.xml'] = {
    body: feedXml('Ann Daily', 'https://ann.example/', 'Ann', 3),
    type: 'application/rss+xml',
  };
  h.docs['/bobonly-feed.xml'] = {
    body: feedXml('BOBONLY Feed', 'https://bobonly.example/', 'BOBONLY', 3),
    type: 'application/rss+xml',
  };
  h.docs['/shared-feed.xml'] = {
    body: feedXml('Shared Feed', 'https://shared.example/', 'Shared', 4),
    type: 'application/rss+xml',
  };
  const annChannel = await annStore.channels.create('Ann Channel');
  const bobChannel = await bobStore.channels.create('BOBONLY Channel');
  const follow = async (store: Store, channel: Channel, path: string) => {
    const feed =
      (await h.store.feeds.findByUrl(h.url(path))) ?? (await h.store.feeds.add(h.url(path), now()));
    await store.channels.subscribe(channel.id, feed.id, now());
    return feed;
  };
  const annFeed = await follow(annStore, annChannel, '/ann-feed.xml');
  const bobFeed = await follow(bobStore, bobChannel, '/bobonly-feed.xml');
  const sharedFeed = await follow(annStore, annChannel, '/shared-feed.xml');
  await follow(bobStore, bobChannel, '/shared-feed.xml');
  for (const path of ['/ann-feed.xml', '/bobonly-feed.xml', '/shared-feed.xml']) await h.poll(h.url(path));
  await h.store.icons.save(bobFeed.id, { contentType: 'image/png', bytes: PNG }, now());
  await h.store.icons.save(annFeed.id, { contentType: 'image/png', bytes: PNG }, now());
  await h.store.icons.save(sharedFeed.id, { contentType: 'image/png', bytes: PNG }, now());
  const ids = async (feedId: number) =>
    (await h.store.entries.listByFeed(feedId, 100)).map((entry) => entry.id).sort((a, b) => a - b);
  const shared = { id: sharedFeed.id, url: sharedFeed.url, entries: await ids(sharedFeed.id) };
  const [s1, s2, s3, s4] = shared.entries as [number, number, number, number];
  const bobEntries = await ids(bobFeed.id);

  // bob's own state: a title of his for the shared feed, saves, a read entry, rules
  await bobStore.channels.setFollowerSettings(sharedFeed.id, { title: 'BOBONLY title for shared' });
  await bobStore.sync.setSaved([bobEntries[0] as number, s1], true, now());
  await bobStore.reading.markRead(bobChannel.id, [s2], true, now());
  await bobStore.filters.add(
    { kind: 'mute', url: 'https://bobonly.example/muted', channelId: bobChannel.id },
    now(),
  );
  await bobStore.filters.add({ kind: 'block', url: 'https://bobonly.example/blocked' }, now());
  // ann's: another shared entry read, another saved
  await annStore.reading.markRead(annChannel.id, [s3], true, now());
  await annStore.sync.setSaved([s4], true, now());

  const ann: Person = {
    id: annUser.id,
    name: 'ann',
    store: annStore,
    token: h.token,
    appPassword: 'correct horse battery',
    feverKey: feverKey('ann', 'correct horse battery'),
    channel: annChannel,
    ownFeed: { id: annFeed.id, url: annFeed.url },
    ownEntries: await ids(annFeed.id),
  };
  const bob: Person = {
    id: bobUser.id,
    name: 'bob',
    store: bobStore,
    token: await tokenOf(bobStore, now()),
    appPassword: 'bob app password',
    feverKey: feverKey('bob', 'bob app password'),
    channel: bobChannel,
    ownFeed: { id: bobFeed.id, url: bobFeed.url },
    ownEntries: bobEntries,
  };
  return { h, ann, bob, shared };
}

/**
 * Everything of a person's that another person's requests must leave alone: channels, subscriptions
 * with their titles, unread counts, read and saved entries as the apps see them, rules, tokens and the
 * app account.
 */
export async function stateOf(store: Store): Promise<unknown> {
  const channels = await store.channels.list();
  const rules = [];
  for (const channel of [undefined, ...channels.map((c) => c.id)])
    for (const kind of ['mute', 'block'] as const) rules.push(await store.filters.list(kind, channel));
  return {
    channels,
    subscriptions: await store.channels.listSubscriptionRefs(),
    counts: await store.reading.unreadCounts(),
    unread: await store.sync.ids({ readState: 'unread' }),
    saved: await store.sync.ids({ savedOnly: true }),
    rules,
    tokens: await store.accounts.listTokens(),
    app: await Promise.all(
      ['api.user', 'api.password', 'api.fever_key', 'api.fever_key_bucket'].map((key) =>
        store.accounts.getUserSetting(key),
      ),
    ),
  };
}

/** The strings of bob's that no answer to ann may hold: the marker, his channel's uid, his feed's icon URL. */
export function bobsSecrets(t: TwoUsers): string[] {
  return [BOB_MARKER, t.bob.channel.uid, `/feed-icons/${t.bob.ownFeed.id}/`];
}

/**
 * How bob's own feed and entries would show by id in an answer: Google Reader's stream and item ids
 * (feed/N, the long item id, a decimal item ref) and Microsub's `_id` and `_source`.
 */
function bobsIdPatterns(t: TwoUsers): RegExp[] {
  const feed = t.bob.ownFeed.id;
  return [
    new RegExp(`feed/${feed}(?![0-9])`),
    new RegExp(`"_source":"${feed}"`),
    ...t.bob.ownEntries.flatMap((id) => [new RegExp(longItemId(id)), new RegExp(`"(?:_id|id)":"${id}"`)]),
  ];
}

/**
 * The first of bob's secrets the text holds (case aside), or the first of his ids it shows, else
 * undefined. What the request itself sent (`sent`: an error message names the id it was given) is no
 * leak and is left out first.
 */
export function leakIn(t: TwoUsers, text: string, sent: readonly string[] = []): string | undefined {
  let rest = text;
  for (const value of [...sent].sort((a, b) => b.length - a.length)) rest = rest.split(value).join('<sent>');
  const lower = rest.toLowerCase();
  const secret = bobsSecrets(t).find((one) => lower.includes(one.toLowerCase()));
  if (secret !== undefined) return secret;
  return bobsIdPatterns(t).find((pattern) => pattern.test(rest))?.source;
}

/** The first of bob's own feed, entry or channel ids a Fever answer shows, else undefined. */
export function feverLeak(t: TwoUsers, body: Record<string, unknown>): string | undefined {
  const entries = new Set(t.bob.ownEntries);
  const feed = t.bob.ownFeed.id;
  const list = (value: unknown) =>
    String(value ?? '')
      .split(',')
      .filter((id) => id !== '')
      .map(Number);
  const rows = (key: string) => (Array.isArray(body[key]) ? (body[key] as Record<string, unknown>[]) : []);
  const found = [
    ...rows('items').flatMap((item) => [entries.has(Number(item['id'])), item['feed_id'] === feed]),
    ...rows('feeds').map((row) => row['id'] === feed),
    ...rows('favicons').map((row) => row['id'] === feed),
    ...rows('groups').map((row) => row['id'] === t.bob.channel.id),
    ...rows('feeds_groups').flatMap((row) => [
      row['group_id'] === t.bob.channel.id,
      list(row['feed_ids']).includes(feed),
    ]),
    ...['unread_item_ids', 'saved_item_ids'].flatMap((key) => list(body[key]).map((id) => entries.has(id))),
  ];
  return found.some(Boolean) ? JSON.stringify(body).slice(0, 300) : undefined;
}

/** An answer as the isolation checks compare them. */
export interface Compared {
  status: number;
  body: unknown;
}

/**
 * Asserts that the answer about another user's id is the answer about a missing id: the same status and
 * body, where each pair [foreign, missing] of values the request named counts as the same in strings
 * (an error message names the id it was given).
 */
export function sameAsMissing(
  foreign: Compared,
  missing: Compared,
  pairs: readonly (readonly [string, string])[],
  what: string,
): void {
  const normalize = (value: unknown): unknown => {
    if (typeof value === 'string') {
      let text = value;
      for (const [a, b] of pairs)
        for (const id of [a, b])
          text = text.replace(new RegExp(`(?<![0-9])${escapeRegExp(id)}(?![0-9])`, 'g'), '<id>');
      return text;
    }
    if (Array.isArray(value)) return value.map(normalize);
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalize(v)]));
    return value;
  };
  if (
    foreign.status !== missing.status ||
    !isDeepStrictEqualJson(normalize(foreign.body), normalize(missing.body))
  )
    throw new Error(
      `${what}: another user's id is answered ${foreign.status} ${JSON.stringify(foreign.body).slice(0, 300)}, ` +
        `a missing one ${missing.status} ${JSON.stringify(missing.body).slice(0, 300)}`,
    );
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function isDeepStrictEqualJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
