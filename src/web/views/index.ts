// The web UI's views (hono/jsx): the pages and their parts, rendered by web/routes and web/render.tsx.

export { ApiAccessView } from './api-access.js';
export { ChannelsView } from './channels.js';
export type { Candidate } from './discover.js';
export { DiscoverView, FollowedElsewhereView } from './discover.js';
export { EntryPage } from './entry-page.js';
export { FeedPage } from './feed.js';
export { FeedSettingsView } from './feed-settings.js';
export { count, entryHeading, safeHref } from './format.js';
export type { FeedHealthRow } from './health.js';
export { HealthDashboard } from './health.js';
export type { ViewScope } from './hrefs.js';
export { entryPageHref, viewHref, withQuery } from './hrefs.js';
export type { LayoutProps } from './layout.js';
export { Layout } from './layout.js';
export { LoginForm, SetPasswordFirst } from './login.js';
export { OpmlJobView, OpmlView } from './opml.js';
export type { EntryContext } from './reader.js';
export { RefreshView } from './refresh.js';
export { SavedView } from './saved.js';
export { SearchView } from './search.js';
export type { ChannelItem, SidebarCurrent, SidebarProps } from './sidebar.js';
export { ALL_COUNT_KEY, channelCountKey, feedCountKey, Sidebar } from './sidebar.js';
export type { SubscriptionGroup } from './subscriptions.js';
export { SubscriptionsView } from './subscriptions.js';
export { TimelineView } from './timeline.js';
export type { TokensProps } from './tokens.js';
export { TokensView } from './tokens.js';
