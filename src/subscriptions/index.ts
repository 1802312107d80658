// The one place where following is decided, for every front end (CLI, web UI, Microsub, the sync APIs):
// the front ends parse their protocol, call these, and render the answer. See the README, "Following feeds".
export { DEFAULT_CHANNEL_NAME, defaultChannel, findChannel } from './channels.js';
export type { SubscriptionDeps } from './deps.js';
export { channelsFollowing, feedNamed, namesFeed } from './feed-ref.js';
export {
  type FirstFetch,
  type FollowRequest,
  type FollowResult,
  follow,
  type RefusalReason,
} from './follow.js';
export { type MoveRequest, type MoveResult, move } from './move.js';
export {
  exportOpml,
  importOpml,
  type OpmlImport,
  type OpmlImportOptions,
  type SkippedOutline,
} from './opml.js';
export { addRule, type RuleRequest, type RuleResult } from './rules.js';
export {
  type FeedSettings,
  feedAsSeen,
  MAX_POLL_INTERVAL_SECONDS,
  MIN_POLL_INTERVAL_SECONDS,
  type SettingsActor,
  type SettingsResult,
  updateFeedSettings,
} from './settings.js';
export { UNFOLLOWED_KEEP_DAYS, type UnfollowRequest, type UnfollowResult, unfollow } from './unfollow.js';
