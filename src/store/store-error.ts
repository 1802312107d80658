/** What went wrong in the store, for callers that answer differently (404 versus 400). */
export type StoreErrorKind = 'not_found' | 'conflict' | 'invalid';

/** A store call that cannot be done as asked (unknown channel, bad timestamp, unsupported URL). */
export class StoreError extends Error {
  readonly kind: StoreErrorKind;

  constructor(kind: StoreErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreError';
    this.kind = kind;
  }
}
