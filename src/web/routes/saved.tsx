import type { Context, Hono } from 'hono';
import { openSaved } from '../../reading/index.js';
import { ClientError } from '../client-error.js';
import type { WebContext, WebEnv } from '../env.js';
import { idOf } from '../forms.js';
import { readingModeOf } from '../reading-mode.js';
import { depsOf, renderPage } from '../render.js';
import {
  EntryPage,
  entryHeading,
  entryPageHref,
  SavedView,
  type ViewScope,
  viewHref,
} from '../views/index.js';
import { pageSize } from './reader.js';
import { channelOfFeed, entryContext, entryContextsByFeed, sidebarFor } from './reading-context.js';

const SCOPE: ViewScope = { saved: true };

/**
 * GET /saved (saved entries, the most recently saved first, paged with the store's opaque cursors: one
 * it did not write is a 400) and /saved/e/:id (one entry, previous/next inside Saved). Entries act in
 * the first channel that follows their feed, as in All unread, or in none when no channel follows it.
 */
export function registerSavedPages(app: Hono<WebEnv>, ctx: WebContext): void {
  app.get('/saved', (c) => savedPage(c, ctx));
  app.get('/saved/e/:id', (c) => savedEntryPage(c, ctx));
}

async function savedPage(c: Context<WebEnv>, ctx: WebContext): Promise<Response> {
  const before = c.req.query('before');
  const after = c.req.query('after');
  const page = await depsOf(c).store.reading.savedEntries({
    limit: pageSize(c),
    ...(after ? { after } : before ? { before } : {}),
  });
  const { base, ctxOf } = await entryContextsByFeed(c, ctx, SCOPE, page.entries);
  const view = (
    <SavedView
      page={page}
      paged={Boolean(after || before)}
      ctx={base}
      ctxOf={ctxOf}
      mode={readingModeOf(c)}
    />
  );
  const sidebar = await sidebarFor(c, { saved: true });
  return renderPage(c, ctx, { title: 'Saved', nav: 'reader', sidebar, children: view });
}

// Opening a saved entry marks it read as the apps do (every channel that follows its feed). An entry no
// longer saved (just unsaved here without JavaScript) is still shown, with its Save button, but it has
// no place in Saved any more, hence no previous/next.
async function savedEntryPage(c: Context<WebEnv>, ctx: WebContext): Promise<Response> {
  const deps = depsOf(c);
  const { store } = deps;
  const id = idOf(c.req.param('id'));
  const entry = id ? await openSaved(deps, id) : undefined;
  if (!entry) throw new ClientError(404, 'web: there is no such entry');
  const cursor = await store.reading.savedCursor(entry.id);
  const [older, newer] = cursor
    ? await Promise.all([
        store.reading.savedEntries({ limit: 1, after: cursor }),
        store.reading.savedEntries({ limit: 1, before: cursor }),
      ])
    : [undefined, undefined];
  const next = older?.entries[0];
  const previous = newer?.entries[0];
  const channelUid = (await channelOfFeed(c, [entry.feedId])).get(entry.feedId) ?? '';
  const page = (
    <EntryPage
      entry={entry}
      ctx={entryContext(c, ctx, { uid: channelUid }, SCOPE)}
      back={{ href: viewHref(SCOPE), title: 'Back to Saved' }}
      previousHref={previous && entryPageHref(SCOPE, previous.id)}
      nextHref={next && entryPageHref(SCOPE, next.id)}
    />
  );
  const sidebar = await sidebarFor(c, { saved: true });
  return renderPage(c, ctx, { title: entryHeading(entry), nav: 'reader', sidebar, children: page });
}
