import { pipeline, Readable, type Transform } from 'node:stream';
import zlib from 'node:zlib';
import { FetchError } from './fetch-error.js';

/** What reading a body produced. `bytes` counts decoded bytes, `transferredBytes` the bytes on the wire. */
export interface BodyRead {
  body: Uint8Array;
  bytes: number;
  transferredBytes: number;
  /** True when `onLimit: 'truncate'` cut the body short. */
  truncated: boolean;
}

export interface ReadBodyOptions {
  url: string;
  /** The Content-Encoding header as sent, e.g. `gzip` or `gzip, br`. */
  contentEncoding: string | undefined;
  maxBytes: number;
  /** `error` throws too_large past the limit; `truncate` keeps the first maxBytes (to sniff error pages). */
  onLimit: 'error' | 'truncate';
}

const DECODERS: Record<string, () => Transform> = {
  gzip: () => zlib.createGunzip(),
  'x-gzip': () => zlib.createGunzip(),
  br: () => zlib.createBrotliDecompress(),
};

/**
 * Reads a response body, decompressing as it streams, and stops (destroying the source, which closes the
 * connection) as soon as either the wire bytes or the decoded bytes pass the limit: a 1 MB gzip of 1 GB of
 * zeros ends after maxBytes of output, not after 1 GB. Throws FetchError for too_large and content_encoding;
 * network errors from the source are rethrown as they are.
 */
export async function readBody(source: Readable, options: ReadBodyOptions): Promise<BodyRead> {
  const encodings = parseContentEncoding(options);
  const iterator: AsyncIterator<Buffer> = source[Symbol.asyncIterator]();
  const state: BodyState = { wire: 0, decoded: 0, truncated: false, chunks: [] };
  try {
    const first = await iterator.next();
    // An empty body with Content-Encoding: gzip is common (and not valid gzip): it is just empty.
    if (first.done === true) return finish(state);
    const wire = countWire(first.value, iterator, state, options);
    const decoders = encodings.map((encoding, index) =>
      createDecoder(encoding, index === 0 ? first.value : undefined, state, options.url),
    );
    let decoded: AsyncIterable<Buffer> = wire;
    if (decoders.length > 0) {
      let stream: Readable = Readable.from(wire, { objectMode: false });
      for (const decoder of decoders) stream = pipeline(stream, decoder, noop);
      decoded = stream;
    }
    for await (const chunk of decoded) {
      if (!keep(chunk, state, options)) break;
    }
    return finish(state);
  } catch (error) {
    // A decoder's own failure (corrupt gzip) is content_encoding; errors that flowed down from the source
    // (reset, timeout) reach the decoders too and keep their identity.
    throw error instanceof FetchError ? error : (state.decoderError ?? error);
  } finally {
    // Leaving early (limit, error) must close the connection now, not when the server finishes sending.
    if (!source.readableEnded) discardBody(source);
  }
}

interface BodyState {
  wire: number;
  decoded: number;
  truncated: boolean;
  chunks: Buffer[];
  sourceError?: unknown;
  decoderError?: FetchError;
}

function noop(): void {}

/**
 * Closes a response body without reading it. undici's body emits an "aborted" error when destroyed without
 * one, which would be an uncaught exception without a listener.
 */
export function discardBody(body: Readable): void {
  body.on('error', noop);
  body.destroy();
}

function finish(state: BodyState): BodyRead {
  const body = Buffer.concat(state.chunks);
  return { body, bytes: body.length, transferredBytes: state.wire, truncated: state.truncated };
}

function keep(chunk: Buffer, state: BodyState, options: ReadBodyOptions): boolean {
  const room = options.maxBytes - state.decoded;
  if (chunk.length <= room) {
    state.decoded += chunk.length;
    state.chunks.push(chunk);
    return true;
  }
  if (options.onLimit === 'error') {
    throw new FetchError('too_large', {
      url: options.url,
      limitBytes: options.maxBytes,
      decompressed: true,
      detail: ' once decompressed',
      bytes: state.decoded + chunk.length,
    });
  }
  state.chunks.push(chunk.subarray(0, room));
  state.decoded += room;
  state.truncated = true;
  return false;
}

async function* countWire(
  first: Buffer,
  rest: AsyncIterator<Buffer>,
  state: BodyState,
  options: ReadBodyOptions,
): AsyncGenerator<Buffer> {
  let next: IteratorResult<Buffer> = { done: false, value: first };
  while (next.done !== true) {
    state.wire += next.value.length;
    // Compressed bytes are limited too: empty gzip members can stream forever and decode to nothing.
    if (state.wire > options.maxBytes) {
      if (options.onLimit === 'truncate') {
        state.truncated = true;
        return;
      }
      throw new FetchError('too_large', {
        url: options.url,
        limitBytes: options.maxBytes,
        bytes: state.wire,
      });
    }
    yield next.value;
    try {
      next = await rest.next();
    } catch (error) {
      state.sourceError = error;
      throw error;
    }
  }
}

function parseContentEncoding(options: ReadBodyOptions): string[] {
  const encodings = (options.contentEncoding ?? '')
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter((part) => part !== '' && part !== 'identity');
  for (const encoding of encodings) {
    if (encoding !== 'deflate' && DECODERS[encoding] === undefined) {
      throw new FetchError('content_encoding', {
        url: options.url,
        encoding,
        detail: 'tidings cannot decompress it; it asked for gzip, deflate or br',
      });
    }
  }
  // Encodings are listed in the order they were applied, so they are undone last first.
  return encodings.reverse();
}

/** `firstChunk` is the decoder's first input when it is the outermost decoder (it picks raw or zlib deflate). */
function createDecoder(
  encoding: string,
  firstChunk: Buffer | undefined,
  state: BodyState,
  url: string,
): Transform {
  let decoder: Transform;
  if (encoding === 'deflate') {
    decoder =
      firstChunk === undefined || isZlibWrapped(firstChunk) ? zlib.createInflate() : zlib.createInflateRaw();
  } else {
    decoder = (DECODERS[encoding] ?? zlib.createGunzip)();
  }
  return decoder.on('error', (error: NodeJS.ErrnoException) => {
    if (state.decoderError === undefined && isDecoderOwnFailure(error, state)) {
      state.decoderError = new FetchError('content_encoding', {
        url,
        encoding,
        detail: error.message,
        cause: error,
      });
    }
  });
}

// Errors from the source (reset, timeout) and the teardown when the loop leaves early ("premature close")
// pass through every decoder too; only the rest are decoding failures.
function isDecoderOwnFailure(error: NodeJS.ErrnoException, state: BodyState): boolean {
  const isTeardown = error.code === 'ERR_STREAM_PREMATURE_CLOSE' || error.name === 'AbortError';
  return !isTeardown && error !== state.sourceError && !(error instanceof FetchError);
}

/**
 * HTTP "deflate" means zlib-wrapped data (RFC 9110 section 8.4.1.2), but old IIS and some PHP setups send
 * raw deflate; a zlib header is recognisable from its first two bytes (RFC 1950: CM 8, check bits).
 */
function isZlibWrapped(chunk: Buffer): boolean {
  const cmf = chunk[0] ?? 0;
  const flg = chunk[1];
  if ((cmf & 0x0f) !== 8 || cmf >> 4 > 7) return false;
  return flg === undefined || ((cmf << 8) | flg) % 31 === 0;
}
