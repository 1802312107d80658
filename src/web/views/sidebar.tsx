import { html, raw } from 'hono/html';
import { channelHref } from './hrefs.js';
import { attribute } from './layout.js';

/** A feed under its channel in the sidebar. */
export interface FeedItem {
  id: number;
  title: string;
  unread: number;
  /** Served at /icons/ID (found while polling). */
  hasIcon: boolean;
}

/** A channel in the sidebar, with its feeds. */
export interface ChannelItem {
  uid: string;
  name: string;
  unread: number;
  feeds: FeedItem[];
  /** How many feeds the channel has when they are not listed (a sidebar of hundreds of feeds). */
  folded?: number;
}

/** Which reading view is shown: All unread, Saved, or a channel (and maybe one of its feeds). */
export type SidebarCurrent =
  | { all: true }
  | { saved: true }
  | { channel: string; feed?: number | undefined }
  | undefined;

export interface SidebarProps {
  channels: ChannelItem[];
  /** The sum of the channels' unread counts. */
  allUnread: number;
  /** How many entries are saved (starred). */
  saved: number;
  current: SidebarCurrent;
  /** The user's rules as saved-search views (issue 25): the query and its search page. */
  searches?: { query: string; href: string }[] | undefined;
}

/** The key of All unread's drawn count (`data-count`), which the page's script sets after an action. */
export const ALL_COUNT_KEY = 'all';

/** The key of a channel's drawn unread count. */
export function channelCountKey(uid: string): string {
  return `channel:${uid}`;
}

/** The key of a feed's drawn unread count under a channel. */
export function feedCountKey(channelUid: string, feedId: number): string {
  return `feed:${channelUid}:${feedId}`;
}

/**
 * An unread count, hidden at 0 but there, so that the page's script can show it again (an html
 * template: the sidebar's feed rows use it too).
 */
function Count(props: { unread: number; countKey: string }) {
  return html`<span class="count" data-unread="true" data-count="${props.countKey}"${props.unread > 0 ? '' : raw(' hidden=""')}>${props.unread}</span>`;
}

/**
 * The reader's sidebar (sticky on wide screens): a search box, All unread, Saved (with how many are
 * saved), the user's rules as saved searches, the channels with their unread counts and, folded under each, its feeds with theirs.
 */
export function Sidebar(props: SidebarProps) {
  const current = props.current;
  const isAll = current !== undefined && 'all' in current;
  const isSaved = current !== undefined && 'saved' in current;
  const channelNow = current !== undefined && 'channel' in current ? current : undefined;
  return (
    <nav class="channels" aria-label="Channels">
      <form method="get" action="/search" class="search">
        <input type="search" name="q" placeholder="Search all entries" aria-label="Search all entries" />
      </form>
      <ul class="views-list">
        <li>
          <a href="/all" aria-current={isAll ? 'page' : undefined} data-view="all">
            <span class="name">All unread</span>
            <Count unread={props.allUnread} countKey={ALL_COUNT_KEY} />
          </a>
        </li>
        <li>
          <a href="/saved" aria-current={isSaved ? 'page' : undefined} data-view="saved">
            <span class="name">Saved</span>
            <span class="count saved-count" data-saved-count hidden={props.saved === 0}>
              {props.saved}
            </span>
          </a>
        </li>
      </ul>
      {props.searches !== undefined && props.searches.length > 0 && (
        <ul class="views-list saved-searches" aria-label="Saved searches">
          {props.searches.map((search) => (
            <li>
              <a href={search.href} data-view="search" title={`Rule: ${search.query}`}>
                <span class="name">{search.query}</span>
              </a>
            </li>
          ))}
        </ul>
      )}
      <ul class="channels-list">
        {props.channels.map((ch) => (
          <ChannelEntry channel={ch} current={channelNow} />
        ))}
      </ul>
      <p class="sidebar-links">
        <a href="/subscriptions">Follow a feed</a> · <a href="/channels">Channels</a> ·{' '}
        <a href="/rules">Rules</a>
      </p>
    </nav>
  );
}

function ChannelEntry(props: {
  channel: ChannelItem;
  current: { channel: string; feed?: number | undefined } | undefined;
}) {
  const { channel: ch, current } = props;
  const isCurrent = current?.channel === ch.uid;
  const link = (
    <a
      href={channelHref(ch.uid)}
      aria-current={isCurrent && current?.feed === undefined ? 'page' : undefined}
      data-channel={ch.uid}
    >
      <span class="name">{ch.name}</span>
      <Count unread={ch.unread} countKey={channelCountKey(ch.uid)} />
    </a>
  );
  if (ch.folded !== undefined && ch.folded > 0)
    return (
      <li>
        {link}
        <a class="feeds-folded" href={channelHref(ch.uid)}>
          {ch.folded} {ch.folded === 1 ? 'feed' : 'feeds'}
        </a>
      </li>
    );
  if (ch.feeds.length === 0) return <li>{link}</li>;
  return (
    <li>
      {link}
      <details class="feeds" open={isCurrent}>
        <summary>
          {ch.feeds.length} {ch.feeds.length === 1 ? 'feed' : 'feeds'}
        </summary>
        <ul class="feeds-list">
          {ch.feeds.map((feed) => (
            <FeedRow channelUid={ch.uid} feed={feed} current={isCurrent && current?.feed === feed.id} />
          ))}
        </ul>
      </details>
    </li>
  );
}

/**
 * A feed of the open channel: an html template (its values escaped as JSX escapes them, the same HTML),
 * since a channel of a hundred feeds made the sidebar a third of a reader page's rendering as JSX.
 */
function FeedRow(props: { channelUid: string; feed: FeedItem; current: boolean }) {
  const { feed } = props;
  const href = channelHref(props.channelUid, { feed: String(feed.id) });
  const icon = feed.hasIcon
    ? html`<img class="feed-icon" src="/icons/${feed.id}" alt="" width="16" height="16" loading="lazy"/>`
    : raw('<span class="feed-icon none"></span>');
  return html`<li><a href="${href}"${attribute('aria-current', props.current ? 'page' : undefined)} data-feed="${String(feed.id)}"><span class="name">${icon}${feed.title}</span>${Count({ unread: feed.unread, countKey: feedCountKey(props.channelUid, feed.id) })}</a></li>`;
}
