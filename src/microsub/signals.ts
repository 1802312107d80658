import { EventEmitter } from 'node:events';
import type { EventRelay, Store } from '../store/index.js';

/**
 * Changes made to channels (read state, follows, removals, rules) through the store of this process,
 * whichever front end made them (Microsub, the web UI, the Google Reader and Fever APIs), so that open
 * event streams can send the new unread counts. New entries come from the poller (PollEvents) instead.
 * With a relay (PostgreSQL) a change made through one process reaches the streams of every process.
 */
export class ChannelSignals {
  readonly #emitter = new EventEmitter();
  readonly #relay: EventRelay | undefined;
  readonly #onError: (error: unknown) => void;

  constructor(
    store: Pick<Store, 'onChannelsChanged'>,
    relay?: EventRelay,
    onError: (error: unknown) => void = () => {},
  ) {
    // every open event stream listens
    this.#emitter.setMaxListeners(0);
    this.#relay = relay;
    this.#onError = onError;
    relay?.onMessage((message) => {
      if (message.kind === 'channel') this.#emitter.emit('changed', message.channelId);
    });
    store.onChannelsChanged((channels) => {
      for (const channelId of new Set(channels)) this.changed(channelId);
    });
  }

  onChanged(listener: (channelId: number) => void): () => void {
    this.#emitter.on('changed', listener);
    return () => this.#emitter.off('changed', listener);
  }

  changed(channelId: number): void {
    if (!this.#relay) {
      this.#emitter.emit('changed', channelId);
      return;
    }
    this.#relay.publish({ kind: 'channel', channelId }).catch((error: unknown) => {
      // the relay's connection is down: this process's streams still hear of it
      this.#onError(error);
      this.#emitter.emit('changed', channelId);
    });
  }
}
