import { readFile } from 'node:fs/promises';
import type { ParseResult } from '../model/index.js';
import type { ParseOptions } from '../parse/index.js';
import { describeFailure } from './failure.js';
import { formatReport } from './parse-report.js';
import { EXIT_USAGE, UserError } from './user-error.js';

export interface ParseCommandOptions {
  json?: boolean;
  jsonl?: boolean;
  baseUrl?: string;
  contentType?: string;
  contentLanguage?: string;
}

/** `tidings parse` (parse-command.ts defines it). */
export async function runParseCommand(documents: string[], opts: ParseCommandOptions): Promise<void> {
  process.exitCode = await runParse(documents, opts);
}

async function runParse(documents: string[], opts: ParseCommandOptions): Promise<number> {
  // --json prints one object (the contract): several documents are --jsonl's, one object a line
  if (opts.json && opts.jsonl)
    throw new UserError('parse: give --json or --jsonl, not both', { exitCode: EXIT_USAGE });
  if (opts.json && documents.length > 1)
    throw new UserError(
      `parse: --json prints one document's object; for ${documents.length} documents use --jsonl`,
      {
        exitCode: EXIT_USAGE,
      },
    );
  if (opts.baseUrl !== undefined && !isAbsoluteUrl(opts.baseUrl))
    throw new UserError(
      `parse: --base-url ${JSON.stringify(opts.baseUrl.slice(0, 200))} is not an absolute URL (such as https://example.com/feed.xml)`,
      { exitCode: EXIT_USAGE },
    );
  let status = 0;
  for (const document of documents) {
    const { result, failed } = await parseDocument(document, opts);
    if (failed) status = 1;
    // A document that is no feed (an HTML page, plain text) is reported as before, and the exit says it.
    if (!failed && result.version === '') {
      status = 1;
      process.stderr.write(`tidings: parse: ${notAFeed(document, result)}\n`);
    }
    if (failed) process.stderr.write(`tidings: ${result.bozoReason ?? `parse: cannot read ${document}`}\n`);
    if (opts.jsonl) process.stdout.write(`${JSON.stringify({ file: document, ...shown(result) })}\n`);
    else if (opts.json) process.stdout.write(`${JSON.stringify(shown(result), null, 2)}\n`);
    else process.stdout.write(formatReport(document, result));
  }
  return status;
}

/** True for a URL that relative links can be resolved against: a scheme and, for http(s), a host. */
function isAbsoluteUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return !/^https?:$/.test(url.protocol) || url.host !== '';
  } catch {
    return false;
  }
}

/** The result as the contract prints it: a key with no value is left out (no encoding was applied to a document never read). */
function shown(result: ParseResult): Partial<ParseResult> {
  if (result.encoding !== '') return result;
  const { encoding: _none, ...rest } = result;
  return rest;
}

function notAFeed(document: string, result: ParseResult): string {
  if (result.diagnostics.some((d) => d.code === 'document.opml'))
    return `${document} is an OPML subscription list, not a feed; tidings import ${document} follows its feeds`;
  return `${document} is not a feed (no RSS, Atom, JSON Feed or h-feed in it)`;
}

async function parseDocument(
  document: string,
  opts: ParseCommandOptions,
): Promise<{ result: ParseResult; failed: boolean }> {
  const options: ParseOptions = {};
  if (opts.baseUrl !== undefined) options.baseUrl = opts.baseUrl;
  if (opts.contentType !== undefined) options.contentType = opts.contentType;
  if (opts.contentLanguage !== undefined) options.contentLanguage = opts.contentLanguage;
  try {
    if (/^https?:\/\//i.test(document)) return { result: await parseUrl(document, options), failed: false };
    const bytes = await readFile(document);
    const { parseFeed } = await loadParser();
    return { result: parseFeed(bytes, options), failed: false };
  } catch (err) {
    const message = `parse: ${readFailure(document, err)}`;
    return {
      failed: true,
      result: {
        version: '',
        bozo: true,
        bozoReason: message,
        encoding: '',
        namespaces: {},
        feed: {},
        entries: [],
        diagnostics: [{ severity: 'error', code: 'document.unreadable', message }],
      },
    };
  }
}

/** Why a document could not be read, in one line: `/x.xml: no such file or folder`, `cannot read URL: fetch failed: ...`. */
function readFailure(document: string, err: unknown): string {
  const failure = describeFailure(err);
  if (failure.details === undefined && failure.message !== undefined)
    return failure.message.startsWith(document)
      ? failure.message
      : `cannot read ${document}: ${failure.message}`;
  const cause = err instanceof Error && err.cause instanceof Error ? `: ${err.cause.message}` : '';
  return `cannot read ${document}: ${err instanceof Error ? err.message : String(err)}${cause}`;
}

async function parseUrl(url: string, options: ParseOptions): Promise<ParseResult> {
  const response = await fetch(url, {
    headers: { 'user-agent': 'tidings-parse' },
    signal: AbortSignal.timeout(30_000),
  });
  // an error page is not the document asked for: its status is the problem, as `add` says it
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`the server answered ${response.status} ${response.statusText}`.trim());
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  const contentType = options.contentType ?? response.headers.get('content-type') ?? undefined;
  const language = options.contentLanguage ?? response.headers.get('content-language') ?? undefined;
  const resolved: ParseOptions = { ...options, baseUrl: options.baseUrl ?? response.url };
  if (contentType !== undefined) resolved.contentType = contentType;
  if (language !== undefined) resolved.contentLanguage = language;
  const { parseFeed } = await loadParser();
  return parseFeed(bytes, resolved);
}

// Loaded when a document is parsed, not when the CLI starts: every other command starts without the
// parser (a tenth of a second; `tidings poll` parses in worker threads).
function loadParser(): Promise<typeof import('../parse/index.js')> {
  return import('../parse/index.js');
}
