import { EventEmitter } from 'node:events';

/**
 * Changes the endpoint itself makes to channels (read state, follows, removals), so that open event
 * streams can send the new unread counts. New entries come from the poller (PollEvents) instead.
 */
export class ChannelSignals {
  readonly #emitter = new EventEmitter();

  constructor() {
    // every open event stream listens
    this.#emitter.setMaxListeners(0);
  }

  onChanged(listener: (channelId: number) => void): () => void {
    this.#emitter.on('changed', listener);
    return () => this.#emitter.off('changed', listener);
  }

  changed(channelId: number): void {
    this.#emitter.emit('changed', channelId);
  }
}
