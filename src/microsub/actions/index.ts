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

/** The handler of an action, checked against the HTTP method; 400 for an unknown action. */
export function actionFor(name: string | undefined, httpMethod: 'GET' | 'POST'): ActionHandler {
  if (name === undefined) throw badRequest('the action parameter is missing');
  const handler = ACTIONS.get(name);
  if (!handler) throw badRequest(`there is no action ${name.slice(0, 40)}`);
  if (httpMethod === 'GET' && POST_ONLY.has(name)) throw badRequest(`${name} is a POST`);
  if (httpMethod === 'POST' && name === 'events') throw badRequest('events is a GET (an EventSource)');
  return handler;
}
