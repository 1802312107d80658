import type { ActionContext } from '../context.js';
import { filterAction } from './filters.js';

/** `action=mute`: GET lists the muted URLs of a channel (or global), POST mutes one; muted entries leave timelines. */
export function muteAction(ctx: ActionContext): Promise<object> {
  return filterAction(ctx, 'mute', true);
}

/** `action=unmute`: POST lifts a mute. */
export function unmuteAction(ctx: ActionContext): Promise<object> {
  return filterAction(ctx, 'mute', false);
}
