import type { ActionHandler } from '../context.js';
import { badRequest } from '../errors.js';
import { blockAction, unblockAction } from './block.js';
import { channelsAction } from './channels.js';
import { eventsAction } from './events.js';
import { followAction } from './follow.js';
import { muteAction, unmuteAction } from './mute.js';
import { previewAction } from './preview.js';
import { searchAction } from './search.js';
import { timelineAction } from './timeline.js';
import { unfollowAction } from './unfollow.js';

/** Every action of the Microsub spec, by the name clients send as `action`. */
export const ACTIONS: ReadonlyMap<string, ActionHandler> = new Map<string, ActionHandler>([
  ['channels', channelsAction],
  ['timeline', timelineAction],
  ['follow', followAction],
  ['unfollow', unfollowAction],
  ['mute', muteAction],
  ['unmute', unmuteAction],
  ['block', blockAction],
  ['unblock', unblockAction],
  ['search', searchAction],
  ['preview', previewAction],
  ['events', eventsAction],
]);

// Changes come only as POST; GET of channels, timeline, follow, mute and block lists instead. Search and
// preview are POST in the spec, and clients GET them too: both are taken.
const POST_ONLY = new Set(['unfollow', 'unmute', 'unblock']);

/** An action as clients call it: the HTTP methods it answers and, for a POST, its `method` values. */
export interface ActionSpec {
  action: string;
  httpMethods: readonly ('GET' | 'POST')[];
  /** The `method` parameter's values of a POST (undefined: none given, e.g. creating a channel). */
  postMethods: readonly (string | undefined)[];
}

const POST_METHODS: Readonly<Record<string, readonly (string | undefined)[]>> = {
  channels: [undefined, 'delete', 'order'],
  timeline: ['mark_read', 'mark_unread', 'remove', 'save', 'unsave'],
};

/**
 * Every action with how it is called, from the table above: what the isolation test walks (each one as
 * one user with another user's ids), so that an action added here cannot be left out of it.
 */
export const MICROSUB_ACTIONS: readonly ActionSpec[] = [...ACTIONS.keys()].map((action) => ({
  action,
  httpMethods: [
    ...(POST_ONLY.has(action) ? [] : (['GET'] as const)),
    ...(action === 'events' ? [] : (['POST'] as const)),
  ],
  postMethods: POST_METHODS[action] ?? [undefined],
}));

/** The handler of an action, checked against the HTTP method; 400 for an unknown action. */
export function actionFor(name: string | undefined, httpMethod: 'GET' | 'POST'): ActionHandler {
  if (name === undefined) throw badRequest('the action parameter is missing');
  const handler = ACTIONS.get(name);
  if (!handler) throw badRequest(`there is no action ${name.slice(0, 40)}`);
  if (httpMethod === 'GET' && POST_ONLY.has(name)) throw badRequest(`${name} is a POST`);
  if (httpMethod === 'POST' && name === 'events') throw badRequest('events is a GET (an EventSource)');
  return handler;
}
