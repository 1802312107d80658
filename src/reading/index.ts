// The one place where reading is decided, for every front end (web UI, Microsub, Google Reader, Fever):
// open an entry, mark read / unread / up to, mark all read with undo, save, refresh, preview, and the
// counts to draw after each. The front ends parse their protocol, call these, and render the answer.
export { type AppFeeds, appFeeds } from './app-feeds.js';
export { channelsActingFor, firstChannelByFeed } from './channel-of-feed.js';
export { countsAfter, type ReadingCounts, readingCounts } from './counts.js';
export type { ReadingDeps } from './deps.js';
export { changeEntries, type EntryChange, markStreamRead, saveEntry } from './entry-state.js';
export { streamJsonObject } from './json-stream.js';
export { entriesOfChannel, markInChannel, markReadUpTo, removeFromChannel } from './mark.js';
export {
  type MarkAllResult,
  type MarkAllScope,
  markAllRead,
  undoableCount,
  undoMarkAll,
} from './mark-all.js';
export { markOpened, openAnywhere, openInChannel, openSaved } from './open.js';
export {
  API_PAGE_BYTES,
  batchesWithinBudget,
  countWithinBudget,
  pageWithinBudget,
} from './page-budget.js';
export { type FeedPreview, type LinkedFeed, type Preview, previewEntries, previewUrl } from './preview.js';
export {
  feedsToRefresh,
  type RefreshFailure,
  type RefreshJob,
  RefreshJobs,
} from './refresh-jobs.js';
export { UndoLog, type UndoRecord } from './undo-log.js';
