// What a request could change in an account, read through the store: channels (order, names, unread
// counts), subscriptions, the apps' unread and saved ids, and mute and block rules. Tests of malformed
// requests compare it before and after: "nothing changed" (issue 22).
import type { Store } from '../../src/store/index.js';

/** A plain, comparable picture of the account. */
export async function accountState(store: Store): Promise<unknown> {
  const channels = await store.reading.channelSummaries();
  const subscriptions = await store.channels.listSubscriptions();
  const rules = [];
  for (const channelId of [undefined, ...channels.map((c) => c.id)]) {
    for (const kind of ['mute', 'block'] as const) {
      const own = (await store.filters.list(kind, channelId)).filter((r) => r.channelId === channelId);
      rules.push(...own.map((r) => `${kind} ${channelId ?? 'global'} ${r.url}`));
    }
  }
  return {
    channels: channels.map((c) => ({ uid: c.uid, name: c.name, unread: c.unread })),
    subscriptions: subscriptions.map((s) => `${s.channelId}:${s.feedId}`).sort(),
    unread: await store.sync.ids({ readState: 'unread' }),
    saved: await store.sync.ids({ savedOnly: true }),
    rules: rules.sort(),
  };
}
