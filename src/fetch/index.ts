export { FETCH_ERROR_KINDS, type FetchErrorKind } from '../model/index.js';
export { ANSWER_SAMPLE_BYTES, fetchMessageAs, oneLineMessage, readAnswerSample } from './answer.js';
export {
  type CacheControl,
  freshnessSeconds,
  parseCacheControl,
  parseHttpDate,
  parseRetryAfter,
} from './cache-headers.js';
export {
  FetchError,
  type FetchErrorContext,
  formatBytes,
  formatSeconds,
  renderFetchErrorMessage,
} from './fetch-error.js';
export {
  type AddressPolicy,
  checkTarget,
  closeSharedAgents,
  createGuardedAgent,
  createGuardedLookup,
  type GuardedAgentOptions,
  getSharedAgent,
  isPublicAddress,
  type Resolver,
} from './guard.js';
export { ACCEPT_ENCODING, DEFAULT_USER_AGENT, FEED_ACCEPT, withAuthorization } from './headers.js';
export { FETCH_DEFAULTS, fetchFeed } from './request.js';
export { classifyStatus, detectBotChallenge, errorForStatus, isRedirectStatus } from './response.js';
export type { FetchOutcome, FetchRequest, Redirect, RedirectStatus } from './types.js';
