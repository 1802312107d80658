// Entries of several MB each, stored as a poll would store them, for the byte budget of API pages
// (src/reading/page-budget.ts, issue 22).
import { API_PAGE_BYTES } from '../../src/reading/page-budget.js';
import type { Store } from '../../src/store/index.js';
import { minutesAfterT0, testEntry, testPoll } from './temp-store.js';

/** About 30% of a page's budget (4.8 MB): three such entries fill a page. */
export const BIG_ENTRY_CHARS = Math.ceil(API_PAGE_BYTES * 0.3);

/**
 * Adds a feed followed in `channel` with `count` entries of BIG_ENTRY_CHARS each, one minute apart;
 * returns their ids, oldest first.
 */
export async function addBigEntries(
  store: Store,
  url: string,
  channel: { id: number },
  count: number,
  now: string,
): Promise<{ feedId: number; ids: number[] }> {
  const feed = await store.feeds.add(url, now);
  await store.channels.subscribe(channel.id, feed.id, now);
  const entries = Array.from({ length: count }, (_, i) =>
    testEntry(`big-${i}`, {
      sortAt: minutesAfterT0(i),
      contentHtml: `<p>${String(i % 10).repeat(BIG_ENTRY_CHARS)}</p>`,
    }),
  );
  const { insertedIds } = await store.polling.record(testPoll(feed.id, entries, now));
  return { feedId: feed.id, ids: [...insertedIds].sort((a, b) => a - b) };
}
