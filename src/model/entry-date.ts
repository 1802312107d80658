/** The dates an entry may carry: what the feed said, and when tidings first saw it. */
export interface EntryDates {
  published?: string | undefined;
  updated?: string | undefined;
  firstSeenAt?: string | undefined;
}

/**
 * The date to show for an entry: published, else updated, else when it was first seen; the same order
 * everywhere (timelines, the entry page, jf2). An Atom entry with only `<updated>` shows that date, not
 * the minute tidings found it (issue 16).
 */
export function entryDate(entry: EntryDates): string | undefined {
  return entry.published ?? entry.updated ?? entry.firstSeenAt;
}
