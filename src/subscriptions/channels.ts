import type { Channel } from '../model/index.js';
import type { Store } from '../store/index.js';

/** The name of the default channel when tidings creates it. */
export const DEFAULT_CHANNEL_NAME = 'Home';
/** Setting that remembers the default channel's uid, so that renaming it keeps it the default. */
export const DEFAULT_CHANNEL_SETTING = 'subscriptions.default_channel';

/**
 * The channel follows and unfiled OPML outlines go to when none is named: the one remembered in the
 * settings, else the channel named "Home" (created when there is none), which is then remembered.
 */
export async function defaultChannel(store: Store): Promise<Channel> {
  const home = (await existingDefault(store)) ?? (await store.channels.create(DEFAULT_CHANNEL_NAME));
  await store.accounts.setUserSetting(DEFAULT_CHANNEL_SETTING, home.uid);
  return home;
}

async function existingDefault(store: Store): Promise<Channel | undefined> {
  const uid = await store.accounts.getUserSetting(DEFAULT_CHANNEL_SETTING);
  const remembered = uid === undefined ? undefined : await store.channels.get(uid);
  return remembered ?? (await findChannel(store, DEFAULT_CHANNEL_NAME));
}

/** The channel `channelFor` would give, when it exists already (nothing is created). */
export async function existingChannel(store: Store, ref: string | undefined): Promise<Channel | undefined> {
  const wanted = ref?.trim();
  return wanted ? findChannel(store, wanted) : existingDefault(store);
}

/** A channel by uid or by name (case does not matter); undefined when there is none. */
export async function findChannel(store: Store, ref: string): Promise<Channel | undefined> {
  const wanted = ref.trim();
  const channels = await store.channels.list();
  return (
    channels.find((c) => c.uid === wanted) ??
    channels.find((c) => c.name.toLowerCase() === wanted.toLowerCase())
  );
}

/**
 * A name as a channel can have it: runs of spaces, line breaks and other control characters (an OPML
 * folder's text across lines) as one space, trimmed.
 */
export function oneLineName(name: string): string {
  return name.replace(/[\s\u0000-\u001f\u007f]+/g, ' ').trim();
}

/** A channel by uid or name, created under that name when there is none; the default one for no name. */
export async function channelFor(store: Store, ref: string | undefined): Promise<Channel> {
  const wanted = ref === undefined ? undefined : oneLineName(ref);
  if (!wanted) return defaultChannel(store);
  return (await findChannel(store, wanted)) ?? store.channels.create(wanted);
}
