import { readingCounts } from '../../reading/index.js';
import type { Store } from '../../store/index.js';
import { type ChannelItem, ruleSearchHref, type SidebarProps } from '../views/index.js';

/** Up to this many subscriptions, every channel lists its feeds in the sidebar; past it only the current one. */
export const SIDEBAR_FEEDS_MAX = 200;

/** How many of the user's entries are saved, and the sidebar's channels in order with unread counts, each with its feeds (by title) and their counts. */
export async function sidebarData(store: Store, current: SidebarProps['current']): Promise<SidebarProps> {
  const [{ channels, allUnread, saved }, rules] = await Promise.all([
    readingCounts(store),
    store.rules.list(),
  ]);
  // rules of one query and channel (different actions) are one saved search
  const searches = [
    ...new Map(rules.map((rule) => [ruleSearchHref(rule, channels), rule.query])).entries(),
  ].map(([href, query]) => ({ query, href }));
  // Hundreds of feeds make every reading page large (2,000 feeds: ~460 KB of sidebar): past
  // SIDEBAR_FEEDS_MAX, only the current channel lists its feeds (and only its feeds are read), the
  // others say how many they have.
  const listAll = channels.reduce((sum, ch) => sum + ch.followed, 0) <= SIDEBAR_FEEDS_MAX;
  const currentUid = current !== undefined && 'channel' in current ? current.channel : undefined;
  const currentId = channels.find((ch) => ch.uid === currentUid)?.id;
  const listed = listAll ? undefined : currentId;
  const subscriptions =
    listAll || listed !== undefined ? await store.channels.listSubscriptionRefs({ channelId: listed }) : [];
  const byChannel = new Map<number, typeof subscriptions>();
  for (const sub of subscriptions) {
    const list = byChannel.get(sub.channelId);
    if (list) list.push(sub);
    else byChannel.set(sub.channelId, [sub]);
  }
  const items: ChannelItem[] = channels.map((ch) => {
    const base = { uid: ch.uid, name: ch.name, unread: ch.unread };
    if (!listAll && ch.id !== listed) return { ...base, feeds: [], folded: ch.followed };
    const feeds = (byChannel.get(ch.id) ?? [])
      .map((sub) => ({
        id: sub.feedId,
        title: sub.title ?? sub.url,
        unread: sub.unread,
        hasIcon: sub.hasIcon,
      }))
      .sort((a, b) => a.title.localeCompare(b.title));
    return { ...base, feeds };
  });
  return { channels: items, allUnread, saved, current, searches };
}
