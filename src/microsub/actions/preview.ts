import { previewEntries, previewUrl } from '../../reading/index.js';
import type { ActionContext } from '../context.js';
import { badRequest } from '../errors.js';
import { toJf2 } from '../jf2.js';
import { safeLinks } from '../links.js';
import { requireHttpUrl } from './follow.js';

const PREVIEW_ITEMS = 20;

/**
 * `action=preview` (Microsub spec, "Preview"): the entries of a URL, as timeline items, without
 * following it and without storing anything (the reading module's preview). A page is resolved to its
 * first feed.
 */
export async function previewAction(ctx: ActionContext): Promise<object> {
  const url = requireHttpUrl(ctx, ctx.params.one('url'));
  const found = await previewUrl(ctx.deps, url, 1);
  const linked = found.kind === 'page' ? found.feeds[0] : undefined;
  const preview = found.kind === 'feed' ? found.feed : linked?.preview;
  if (!preview) {
    const why = found.kind === 'error' ? found.message : (linked?.error ?? 'no feed found');
    throw badRequest(`cannot preview ${url}: ${why}`);
  }
  const { feed } = preview.result;
  // the same normalization stored entries get, so a preview shows what following would show
  const items = previewEntries(preview, ctx.deps.now(), PREVIEW_ITEMS);
  // the feed's own icon, unstored: the first the URL policy lets out
  const [icon] = safeLinks([feed.icon, feed.image?.href].filter((url) => url !== undefined));
  const feedInfo = {
    url: preview.url,
    ...(feed.title ? { title: feed.title } : {}),
    ...(feed.link ? { siteUrl: feed.link } : {}),
    ...(icon ? { iconUrl: icon } : {}),
  };
  return {
    type: 'feed',
    url: preview.url,
    ...(feed.title ? { name: feed.title } : {}),
    items: items.map((entry) => toJf2(entry, feedInfo)),
  };
}
