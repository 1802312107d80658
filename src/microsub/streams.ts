/** How many event streams may be open, and how often their tokens are checked again. */
export interface StreamLimits {
  /** Open streams per token. */
  perToken: number;
  /** Open streams of the whole endpoint (process). */
  total: number;
  /** Milliseconds between checks that each open stream's token is still valid (not revoked). */
  recheckMs: number;
}

// Each open stream listens to every write and new entry and loads what it sends: 300 open streams made
// writes 5x slower (issue 22). A client needs one per window; ten per token leave room for several.
export const DEFAULT_STREAM_LIMITS: StreamLimits = { perToken: 10, total: 100, recheckMs: 5_000 };

interface OpenStream {
  tokenKey: string;
  isTokenValid: () => Promise<boolean>;
  close: () => void;
}

/** A place taken by an open stream; released when the stream ends. */
export interface StreamPlace {
  release(): void;
}

/**
 * The open event streams of the endpoint: caps how many are open per token and in all, and checks
 * every `recheckMs` that each one's token is still valid, closing the streams of a token revoked since
 * (in the web UI, by `tidings token revoke` in another process, or at the IndieAuth token endpoint).
 */
export class EventStreams {
  readonly #open = new Set<OpenStream>();
  readonly #limits: StreamLimits;
  readonly #onError: (error: unknown) => void;
  #timer: NodeJS.Timeout | undefined;
  #checking = false;

  constructor(limits: Partial<StreamLimits> = {}, onError: (error: unknown) => void = () => {}) {
    this.#limits = { ...DEFAULT_STREAM_LIMITS, ...limits };
    this.#onError = onError;
  }

  get limits(): Readonly<StreamLimits> {
    return this.#limits;
  }

  /** How many streams are open, of one token or in all. */
  count(tokenKey?: string): number {
    if (tokenKey === undefined) return this.#open.size;
    return [...this.#open].filter((s) => s.tokenKey === tokenKey).length;
  }

  /**
   * Takes a place for a stream of this token: 'token' when the token has its streams open already,
   * 'total' when the endpoint has. `close` is called when the token stops being valid.
   */
  open(
    tokenKey: string,
    isTokenValid: () => Promise<boolean>,
    close: () => void,
  ): StreamPlace | 'token' | 'total' {
    if (this.#open.size >= this.#limits.total) return 'total';
    if (this.count(tokenKey) >= this.#limits.perToken) return 'token';
    const stream: OpenStream = { tokenKey, isTokenValid, close };
    this.#open.add(stream);
    this.#startChecks();
    return {
      release: () => {
        this.#open.delete(stream);
        if (this.#open.size === 0) this.#stopChecks();
      },
    };
  }

  /** Checks each open token once (one check per token, whatever its streams) and closes the streams of those no longer valid. */
  async recheck(): Promise<void> {
    const byToken = new Map<string, OpenStream[]>();
    for (const stream of this.#open)
      byToken.set(stream.tokenKey, [...(byToken.get(stream.tokenKey) ?? []), stream]);
    for (const streams of byToken.values()) {
      const first = streams[0] as OpenStream;
      let valid: boolean;
      try {
        valid = await first.isTokenValid();
      } catch (error) {
        // the store is down: no answer about the token, the streams stay until the next check
        this.#onError(error);
        continue;
      }
      if (!valid) for (const stream of streams) stream.close();
    }
  }

  #startChecks(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => {
      if (this.#checking) return;
      this.#checking = true;
      this.recheck().finally(() => {
        this.#checking = false;
      });
    }, this.#limits.recheckMs);
    // open streams keep the server busy; a timer of their own must not keep a stopping process alive
    this.#timer.unref();
  }

  #stopChecks(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
