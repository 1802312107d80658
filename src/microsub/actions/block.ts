import type { ActionContext } from '../context.js';
import { filterAction } from './filters.js';

/** `action=block`: GET lists the blocked URLs of a channel (or global), POST blocks one. */
export function blockAction(ctx: ActionContext): Promise<object> {
  return filterAction(ctx, 'block', true);
}

/** `action=unblock` (indieweb/microsub#30 added it to the spec): POST lifts a block. */
export function unblockAction(ctx: ActionContext): Promise<object> {
  return filterAction(ctx, 'block', false);
}
