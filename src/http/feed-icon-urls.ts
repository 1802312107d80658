import type { Context } from 'hono';

/** Gives a feed's icon URL on tidings' origin, or undefined when no icon is stored for it. */
export type FeedIconUrl = (feedId: number) => string | undefined;

/**
 * The icon URLs of a request: absolute, on the origin the client used, for feeds with a stored icon.
 * The server signs and serves them (server/feed-icons.ts) and hands this to the APIs that show icons.
 */
export type FeedIconUrls = (c: Context) => Promise<FeedIconUrl>;
