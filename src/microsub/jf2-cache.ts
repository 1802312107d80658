import type { TimelineEntry, TimelineRef } from '../store/index.js';
import { toJf2 } from './jf2.js';

// About 16 MB of JSON text (twice that for text outside Latin-1): thousands of entries of the pages
// clients keep asking for.
const DEFAULT_MAX_CHARS = 16 * 1024 * 1024;

/** What an item's JSON was made from: the entry as it last changed, and the feed its author card falls back to. */
interface Made {
  changedAt: string;
  feed: TimelineRef['feed'];
  /** The item's JSON without its state and closing brace. */
  body: string;
}

/** The read and saved state an item carries, which changes without the entry changing. */
export type ItemState = Pick<TimelineRef, 'isRead' | 'isSaved'>;

/**
 * The jf2 JSON of entries served lately, so that a timeline page whose entries have not changed since is
 * answered without reading their content or converting it again (issue 14: clients ask for the same
 * first page over and over). An item is kept with when its entry last changed and the feed fields its
 * author card falls back to, and is made again when either differs; its state (`_is_read`,
 * `_is_saved`) is added on each request. Bounded by the characters kept, the least recently used
 * dropped first.
 */
export class Jf2Cache {
  readonly #made = new Map<number, Made>();
  #chars = 0;

  constructor(private readonly maxChars = DEFAULT_MAX_CHARS) {}

  /** The item's JSON for this reference, when what was kept of its entry still holds. */
  item(ref: TimelineRef): string | undefined {
    const made = this.#made.get(ref.id);
    if (made === undefined || made.changedAt !== ref.changedAt || !sameFeed(made.feed, ref.feed))
      return undefined;
    this.#made.delete(ref.id);
    this.#made.set(ref.id, made);
    return withState(made.body, ref);
  }

  /** Makes the entry's item, keeps it, and returns its JSON with this state. */
  add(entry: TimelineEntry, state: ItemState): string {
    const json = JSON.stringify(toJf2(entry, entry.feed, { id: entry.id, feedId: entry.feedId }));
    const made: Made = { changedAt: entry.changedAt, feed: entry.feed, body: json.slice(0, -1) };
    this.#drop(entry.id);
    if (made.body.length <= this.maxChars / 16) {
      this.#made.set(entry.id, made);
      this.#chars += made.body.length;
      for (const [id] of this.#made) {
        if (this.#chars <= this.maxChars) break;
        this.#drop(id);
      }
    }
    return withState(made.body, state);
  }

  /**
   * The items of these references as JSON, in their order: kept ones as they are, the others loaded
   * (`load`: the entries by id, with their feeds) and kept. An entry gone in between is left out.
   */
  async items(
    refs: readonly TimelineRef[],
    load: (ids: number[]) => Promise<TimelineEntry[]>,
  ): Promise<string[]> {
    const items = refs.map((ref) => this.item(ref));
    const missing = refs.filter((_, i) => items[i] === undefined).map((ref) => ref.id);
    if (missing.length === 0) return items as string[];
    const loaded = new Map((await load(missing)).map((entry) => [entry.id, entry]));
    return refs.flatMap((ref, i) => {
      const kept = items[i];
      if (kept !== undefined) return [kept];
      const entry = loaded.get(ref.id);
      return entry === undefined ? [] : [this.add(entry, ref)];
    });
  }

  /**
   * The size of each reference's item, in its order: the length of the JSON kept, else the entry's
   * stored size (`measure`: bytes by id), for a page's byte budget (src/reading/page-budget.ts).
   */
  async sizes(
    refs: readonly TimelineRef[],
    measure: (ids: number[]) => Promise<Map<number, number>>,
  ): Promise<number[]> {
    const kept = refs.map((ref) => {
      const made = this.#made.get(ref.id);
      return made !== undefined && made.changedAt === ref.changedAt ? made.body.length : undefined;
    });
    const missing = refs.filter((_, i) => kept[i] === undefined).map((ref) => ref.id);
    const measured = missing.length > 0 ? await measure(missing) : new Map<number, number>();
    return refs.map((ref, i) => kept[i] ?? measured.get(ref.id) ?? 0);
  }

  /** How many items are kept (for tests). */
  get size(): number {
    return this.#made.size;
  }

  #drop(id: number): void {
    const made = this.#made.get(id);
    if (made === undefined) return;
    this.#made.delete(id);
    this.#chars -= made.body.length;
  }
}

function sameFeed(a: TimelineRef['feed'], b: TimelineRef['feed']): boolean {
  return (
    a.id === b.id &&
    a.url === b.url &&
    a.title === b.title &&
    a.siteUrl === b.siteUrl &&
    a.iconUrl === b.iconUrl
  );
}

function withState(body: string, state: ItemState): string {
  return `${body},"_is_read":${state.isRead},"_is_saved":${state.isSaved}}`;
}
