// What the front ends (web, microsub, greader, fever) share about HTTP, below all of them: body limits,
// request parameters and addresses, the API failure log, the last-resort error answer, and the types of
// what the server hands them. The front ends import this folder, never src/server (which mounts them).
export { logApiFailures } from './api-failures.js';
export { limitRequestBody } from './body-limit.js';
export { answerUnhandledError } from './errors.js';
export type { FeedIconUrl, FeedIconUrls } from './feed-icon-urls.js';
export { clientAddress, RequestParams, readRequestParams, requestOrigin } from './request.js';
