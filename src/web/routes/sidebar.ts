import type { WebContext } from '../env.js';
import type { ChannelItem, SidebarProps } from '../views/sidebar.js';

/** How many entries are saved, and the sidebar's channels in order with unread counts, each with its feeds (by title) and their counts. */
export async function sidebarData(ctx: WebContext, current: SidebarProps['current']): Promise<SidebarProps> {
  const { store } = ctx.deps;
  const [channels, counts, feedCounts, subscriptions, iconIds, saved] = await Promise.all([
    store.listChannels(),
    store.unreadCounts(),
    store.unreadCountsByFeed(),
    store.listSubscriptionRefs(),
    store.feedIdsWithIcons(),
    store.syncCount({ savedOnly: true }),
  ]);
  const hasIcon = new Set(iconIds);
  const unread = new Map(counts.map((count) => [count.channelId, count.unread]));
  const feedUnread = new Map(feedCounts.map((count) => [`${count.channelId}:${count.feedId}`, count.unread]));
  const items: ChannelItem[] = channels.map((ch) => ({
    uid: ch.uid,
    name: ch.name,
    unread: unread.get(ch.id) ?? 0,
    feeds: subscriptions
      .filter((sub) => sub.channelId === ch.id)
      .map((sub) => ({
        id: sub.feedId,
        title: sub.title ?? sub.url,
        unread: feedUnread.get(`${ch.id}:${sub.feedId}`) ?? 0,
        hasIcon: hasIcon.has(sub.feedId),
      }))
      .sort((a, b) => a.title.localeCompare(b.title)),
  }));
  const allUnread = items.reduce((sum, ch) => sum + ch.unread, 0);
  return { channels: items, allUnread, saved, current };
}
