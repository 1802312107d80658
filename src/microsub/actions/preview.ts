import { discover } from '../../poll/discover.js';
import { identifyEntries, toNewEntry } from '../../poll/entries.js';
import type { ActionContext } from '../context.js';
import { badRequest } from '../errors.js';
import { toJf2 } from '../jf2.js';
import { safeLinks } from '../links.js';
import { requireHttpUrl } from './follow.js';

const PREVIEW_ITEMS = 20;

/**
 * `action=preview` (Microsub spec, "Preview"): the entries of a URL, as timeline items, without
 * following it and without storing anything. A page is resolved to its first feed.
 */
export async function previewAction(ctx: ActionContext): Promise<object> {
  const url = requireHttpUrl(ctx, ctx.params.one('url'));
  let found = await discover(ctx.deps.poll, url);
  if (found.kind === 'page' && found.feeds[0]) found = await discover(ctx.deps.poll, found.feeds[0].url);
  if (found.kind !== 'feed') {
    throw badRequest(`cannot preview ${url}: ${found.kind === 'error' ? found.message : 'no feed found'}`);
  }
  const { feed, entries } = found.result;
  const now = ctx.deps.now();
  // the same normalization stored entries get, so a preview shows what following would show
  const items = identifyEntries(entries.slice(0, PREVIEW_ITEMS), []).map((item) =>
    toNewEntry(item, now, [], false),
  );
  // the feed's own icon, unstored: the first the URL policy lets out
  const [icon] = safeLinks([feed.icon, feed.image?.href].filter((url) => url !== undefined));
  const feedInfo = {
    url: found.url,
    ...(feed.title ? { title: feed.title } : {}),
    ...(feed.link ? { siteUrl: feed.link } : {}),
    ...(icon ? { iconUrl: icon } : {}),
  };
  return {
    type: 'feed',
    url: found.url,
    ...(feed.title ? { name: feed.title } : {}),
    items: items.map((entry) => toJf2(entry, feedInfo)),
  };
}
