import type { Store } from '../store/index.js';

// One byte budget for a page of any API (Google Reader, Fever, Microsub), issue 22: 31 entries of 19 MB
// made Google Reader's stream/contents?n=1000 and Fever's items answer 500 ("Invalid string length")
// at 4.8 GB of memory. A page ends early once its entries' stored sizes reach the budget (the API's
// continuation then gets the rest); an answer that must hold every entry asked for is written in
// batches of at most a budget each (streamJsonObject). The first entry always fits, so that paging
// never stalls, whatever the size of one entry.

/** The bytes of entries one page of an API holds, by their stored size (16 MiB). */
export const API_PAGE_BYTES = 16 * 1024 * 1024;

/**
 * How many of these sizes, from the first (or from the last, `fromEnd`), fit the budget: at least one
 * when there is any, then as long as the sum stays within `maxBytes`.
 */
export function countWithinBudget(sizes: readonly number[], maxBytes: number, fromEnd = false): number {
  let spent = 0;
  for (let n = 0; n < sizes.length; n++) {
    const size = sizes[fromEnd ? sizes.length - 1 - n : n] ?? 0;
    if (n > 0 && spent + size > maxBytes) return n;
    spent += size;
  }
  return sizes.length;
}

/** The first of these ids that fit one page's budget by their stored sizes (at least one). */
export async function pageWithinBudget(
  store: Store,
  ids: readonly number[],
  maxBytes = API_PAGE_BYTES,
): Promise<number[]> {
  for await (const batch of batchesWithinBudget(store, ids, maxBytes)) return batch;
  return [];
}

/**
 * These ids in order, cut into batches of at most `maxBytes` by their stored sizes (one id alone when it
 * is bigger). Sizes are read a window at a time, so that any number of ids costs no more memory.
 */
export async function* batchesWithinBudget(
  store: Store,
  ids: readonly number[],
  maxBytes = API_PAGE_BYTES,
): AsyncGenerator<number[]> {
  const WINDOW = 1000;
  let batch: number[] = [];
  let spent = 0;
  for (let at = 0; at < ids.length; at += WINDOW) {
    const window = ids.slice(at, at + WINDOW);
    const sizes = await store.entries.sizes(window);
    for (const id of window) {
      const size = sizes.get(id) ?? 0;
      if (batch.length > 0 && spent + size > maxBytes) {
        yield batch;
        batch = [];
        spent = 0;
      }
      batch.push(id);
      spent += size;
    }
  }
  if (batch.length > 0) yield batch;
}
