import { StoreError } from '../store/index.js';

/** The error codes of the Microsub spec ("Error Response", as in Micropub) and their HTTP statuses. */
export type MicrosubErrorCode = 'invalid_request' | 'unauthorized' | 'insufficient_scope' | 'not_found';

const STATUS: Record<MicrosubErrorCode, 400 | 401 | 403 | 404> = {
  invalid_request: 400,
  unauthorized: 401,
  insufficient_scope: 403,
  not_found: 404,
};

/** A request the endpoint refuses: answered as `{"error", "error_description"}` with its status. */
export class MicrosubError extends Error {
  readonly code: MicrosubErrorCode;
  readonly status: 400 | 401 | 403 | 404;

  constructor(code: MicrosubErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MicrosubError';
    this.code = code;
    this.status = STATUS[code];
  }
}

/** A 400 `invalid_request`. */
export function badRequest(message: string): MicrosubError {
  return new MicrosubError('invalid_request', `microsub: ${message}`);
}

/** A 404 `not_found`. */
export function notFound(message: string): MicrosubError {
  return new MicrosubError('not_found', `microsub: ${message}`);
}

/**
 * The Microsub error a thrown value stands for, or undefined for a failure on our side (a 500).
 * The store's `invalid` (a bad cursor) and `conflict` are the client's bad request; `not_found` a 404.
 */
export function toMicrosubError(error: unknown): MicrosubError | undefined {
  if (error instanceof MicrosubError) return error;
  if (error instanceof StoreError) {
    if (error.kind === 'not_found') return new MicrosubError('not_found', error.message, { cause: error });
    return new MicrosubError('invalid_request', error.message, { cause: error });
  }
  return undefined;
}
