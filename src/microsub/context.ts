import type { Context } from 'hono';
import type { Grant } from './auth.js';
import type { MicrosubDeps } from './deps.js';
import type { Jf2Cache } from './jf2-cache.js';
import type { Params } from './params.js';
import type { ChannelSignals } from './signals.js';
import type { EventStreams, StreamLimits } from './streams.js';

/** Settings of the endpoint that tests change. */
export interface MicrosubOptions {
  /** Milliseconds between the comment lines that keep an event stream open; default 30 s. */
  heartbeatMs?: number;
  /** Caps of the event streams and how often their tokens are checked again (streams.ts has the defaults). */
  streams?: Partial<StreamLimits>;
}

/** What an action handler gets: the server, the request's parameters and token, and the Hono context. */
export interface ActionContext {
  /**
   * The endpoint's deps with `store` acting as the token's user (Store.forUser): channels, timelines,
   * rules and read state are that user's. Feeds and entries are the instance's: a feed id from the
   * client counts only when the user follows it (store.channels.follows).
   */
  deps: MicrosubDeps;
  params: Params;
  grant: Grant;
  httpMethod: 'GET' | 'POST';
  hono: Context;
  signals: ChannelSignals;
  /** The jf2 of entries served lately (timeline pages). */
  jf2: Jf2Cache;
  options: MicrosubOptions;
  /** The open event streams. */
  streams: EventStreams;
  /** True while the request's token is still valid (not revoked since): open event streams ask it again. */
  isTokenValid: () => Promise<boolean>;
}

/** Handles one action: returns the JSON body of a 200, or a whole Response (events). */
export type ActionHandler = (ctx: ActionContext) => Promise<object | Response>;
