/** /c/UID with query parameters (empty ones left out). */
export function channelHref(uid: string, query: Record<string, string | undefined> = {}): string {
  return withQuery(`/c/${encodeURIComponent(uid)}`, query);
}

/** A path with query parameters; empty ones are left out. */
export function withQuery(path: string, query: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

/** Where a reading view lives: a channel (with its feed and unread filters), All unread, or Saved. */
export interface ViewScope {
  /** undefined for All unread and Saved. */
  channelUid?: string | undefined;
  /** The Saved view (starred entries). */
  saved?: boolean | undefined;
  feedId?: number | undefined;
  unreadOnly?: boolean | undefined;
}

/** The page of one entry, opened from a view (its filters carried along for previous/next). */
export function entryPageHref(scope: ViewScope, entryId: number): string {
  if (scope.saved) return `/saved/e/${entryId}`;
  if (scope.channelUid === undefined) return `/all/e/${entryId}`;
  return withQuery(`/c/${encodeURIComponent(scope.channelUid)}/e/${entryId}`, {
    feed: scope.feedId === undefined ? undefined : String(scope.feedId),
    unread: scope.unreadOnly ? '1' : undefined,
  });
}

/** The list or river page of a view. */
export function viewHref(scope: ViewScope, query: Record<string, string | undefined> = {}): string {
  if (scope.saved) return withQuery('/saved', query);
  if (scope.channelUid === undefined) return withQuery('/all', query);
  return channelHref(scope.channelUid, {
    feed: scope.feedId === undefined ? undefined : String(scope.feedId),
    unread: scope.unreadOnly ? '1' : undefined,
    ...query,
  });
}
