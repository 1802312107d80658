// WebSub, subscriber side (issue 26): discovery, subscription, the callback's answers, leases.

export { askHub, type HubAnswer } from './hub.js';
export { type HeaderLink, headerPushLinks, parseLinkHeader } from './links.js';
export { checkSignature, type SignatureCheck, signBody } from './signature.js';
export { describePush, type PushStatusJson, pushStatusJson } from './status.js';
export { CALLBACK_PREFIX, LEASE_SECONDS, WebSub } from './websub.js';
