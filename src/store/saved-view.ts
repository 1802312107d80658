import type { Kysely } from 'kysely';
import { encodeCursor } from './cursor.js';
import { type KeyColumns, pageKeys, toPage } from './paging.js';
import type { TimelinePage, UnreadQuery } from './reader.js';
import type { Database } from './schema.js';
import { loadTimelineEntries } from './timeline.js';

// The web reader's "Saved" view (issue 16): saved (starred) entries, the most recently saved first,
// whether a channel still follows their feed or not. Paged by (saved_at, entry_id) with the timeline's
// opaque cursors, so that a cursor tidings did not write is a StoreError 'invalid' (a 400).

const SAVED_KEYS: KeyColumns = { sortAt: 'saved_entries.saved_at', id: 'saved_entries.entry_id' };

function savedKeys(db: Kysely<Database>) {
  return db
    .selectFrom('saved_entries')
    .select(['saved_entries.entry_id as id', 'saved_entries.saved_at as sort_at']);
}

/** One page of saved entries, most recently saved first; read when read in any channel. */
export async function savedEntries(db: Kysely<Database>, query: UnreadQuery): Promise<TimelinePage> {
  const page = await pageKeys(() => savedKeys(db), query, SAVED_KEYS);
  const entries = await loadTimelineEntries(
    db,
    page.keys.map((key) => key.id),
    'any channel',
  );
  return toPage(page, entries, query.before);
}

/** The cursor of a saved entry's place in the Saved view (for its neighbours); undefined when not saved. */
export async function savedCursor(db: Kysely<Database>, entryId: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('saved_entries')
    .select(['entry_id', 'saved_at'])
    .where('entry_id', '=', entryId)
    .executeTakeFirst();
  return row ? encodeCursor({ sortAt: row.saved_at, id: row.entry_id }) : undefined;
}
