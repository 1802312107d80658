import { htmlToText } from '../html/index.js';
import type { ParseResult } from '../model/index.js';
import type { FeedPatch } from '../store/index.js';
import { syndicationSeconds } from './scheduler.js';

/** The feed's own description of itself, as stored: title, links, icon, hub, and its polling hint. */
export function feedMetadata(result: Omit<ParseResult, 'entries'>): FeedPatch {
  const { feed } = result;
  const patch: FeedPatch = {};
  if (result.version === '') return patch;
  // titles are shown and sent as text (as an entry's is): a title the parser took for HTML is read as
  // the text it shows, not its markup
  if (feed.title) patch.title = asText(feed.title, feed.titleDetail?.type);
  if (feed.link) patch.siteUrl = feed.link;
  if (feed.subtitle) patch.description = asText(feed.subtitle, feed.subtitleDetail?.type);
  const icon = feed.icon ?? feed.image?.href ?? feed.logo ?? feed.itunes?.image;
  if (icon) patch.iconUrl = icon;
  if (feed.hubs?.[0]) patch.hubUrl = feed.hubs[0];
  if (feed.self) patch.selfUrl = feed.self;
  const hint = hintSeconds(result);
  patch.hintIntervalSeconds = hint ?? null;
  return patch;
}

function asText(value: string, type: string | undefined): string {
  // no markup and no reference: the text it is (the HTML reader is not woken in the poll's thread)
  if (type === undefined || type === 'text/plain' || !/[<&]/.test(value)) return value;
  return htmlToText(value);
}

// RSS <ttl> is in minutes; sy:updatePeriod/Frequency says how often the feed changes.
function hintSeconds(result: Omit<ParseResult, 'entries'>): number | undefined {
  const hints: number[] = [];
  const ttl = Number.parseInt(result.feed.ttl ?? '', 10);
  if (Number.isFinite(ttl) && ttl > 0) hints.push(ttl * 60);
  const sy = result.feed.syndication;
  const period = syndicationSeconds(sy?.updatePeriod, sy?.updateFrequency);
  if (period !== undefined) hints.push(period);
  return hints.length ? Math.max(...hints) : undefined;
}
