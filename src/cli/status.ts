import { redactSecrets } from '../log.js';
import type { Diagnostic, StoredFeed } from '../model/index.js';
import { describePush, feedHealthAt, pushStatusJson } from '../poll/index.js';
import type { PushSubscription } from '../store/index.js';
import { type App, withApp } from './app.js';
import { findFeed } from './subscribe.js';
import { UserError } from './user-error.js';

/** `tidings status` (status-command.ts defines it): every feed's health, or one feed's history. */
export async function runStatus(feed: string | undefined, opts: StatusOptions): Promise<void> {
  process.exitCode = await withApp({ database: opts.database }, async (app) => {
    if (feed !== undefined) return showFeed(app, feed, opts.json === true);
    const feeds = await app.store.feeds.list();
    const subs = new Map((await app.store.websub.list()).map((sub) => [sub.feedId, sub]));
    const json = () => feeds.map((f) => statusJson(f, subs.get(f.id)));
    process.stdout.write(opts.json ? `${JSON.stringify({ feeds: json() }, null, 2)}\n` : statusTable(feeds));
    return 0;
  });
}

export interface StatusOptions {
  json?: boolean;
  database?: string;
}

/** The JSON of one feed in `status --json` (every key present; null where unknown). */
export function statusJson(
  feed: StoredFeed,
  push?: PushSubscription,
  now = new Date(),
): Record<string, unknown> {
  return {
    id: feed.id,
    url: feed.url,
    originalUrl: feed.originalUrl,
    title: feed.title ?? null,
    status: feed.status ?? null,
    health: feedHealthAt(feed, now),
    httpStatus: feed.httpStatus ?? null,
    lastCheckedAt: feed.lastCheckedAt ?? null,
    lastSuccessAt: feed.lastSuccessAt ?? null,
    // a feed that is gone, or that no channel follows, is not polled: it has no next check
    nextCheckAt: feed.status === 'gone' || feed.unfollowedAt !== undefined ? null : feed.nextCheckAt,
    errorCount: feed.errorCount,
    message: feed.message ?? null,
    diagnostics: feed.diagnostics,
    // WebSub (issue 26): {state, hub, topic, expiresAt}
    push: pushStatusJson(feed, push, now),
  };
}

function statusTable(feeds: StoredFeed[]): string {
  if (feeds.length === 0) return 'no feeds yet: tidings add URL, or tidings import FILE.opml\n';
  const rows = feeds.map((f) => {
    const health = feedHealthAt(f, new Date());
    const problem =
      health === 'unfollowed'
        ? `not polled: no channel follows it since ${f.unfollowedAt?.slice(0, 10)}`
        : health === 'ok' || health === 'not_modified'
          ? ''
          : (f.message ?? '');
    return [
      String(f.id),
      health,
      f.lastSuccessAt?.slice(0, 16).replace('T', ' ') ?? 'never',
      f.title ?? redactSecrets(f.url),
      problem,
    ];
  });
  const header = ['id', 'health', 'last success', 'feed', 'last error'];
  const widths = header.map((h, i) =>
    Math.min(Math.max(h.length, ...rows.map((r) => (r[i] as string).length)), i === 3 ? 48 : 200),
  );
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 4 ? c : c.slice(0, widths[i]).padEnd(widths[i] as number)))
      .join('  ')
      .trimEnd();
  return `${[line(header), ...rows.map(line)].join('\n')}\n`;
}

async function showFeed(app: App, ref: string, json: boolean): Promise<number> {
  const feed = await findFeed(app, ref);
  if (!feed) throw new UserError(`status: no feed ${ref} (tidings status lists the feeds)`);
  const heartbeats = await app.store.heartbeats.list(feed.id, 20);
  const push = await app.store.websub.get(feed.id);
  if (json) {
    process.stdout.write(`${JSON.stringify({ feed: statusJson(feed, push), heartbeats }, null, 2)}\n`);
    return 0;
  }
  const lines = [
    `${feed.title ?? redactSecrets(feed.url)} (feed ${feed.id})`,
    `  url:          ${redactSecrets(feed.url)}${feed.url !== feed.originalUrl ? ` (moved from ${redactSecrets(feed.originalUrl)})` : ''}`,
    `  health:       ${feedHealthAt(feed, new Date())}${feed.message ? `: ${feed.message}` : ''}`,
    `  last success: ${feed.lastSuccessAt ?? 'never'}`,
    `  next check:   ${feed.status === 'gone' ? 'never (gone)' : feed.unfollowedAt !== undefined ? 'never (no channel follows it)' : feed.nextCheckAt}`,
    `  push:         ${describePush(push, app.config.baseUrl !== undefined, new Date())}`,
    '  history:',
    ...heartbeats.map(
      (h) =>
        `    ${h.at}  ${h.status.padEnd(14)} ${String(h.httpStatus ?? '-').padEnd(4)} +${h.newCount} ~${h.updatedCount}  ${h.message ?? ''}`,
    ),
    // after a failed fetch, what is kept is the document read before's (as the feed's web page says)
    feed.status === 'fetch_error' || feed.status === 'gone'
      ? '  diagnostics: the last poll read no document; the one read before it had:'
      : '  diagnostics of the last poll:',
    ...(feed.diagnostics.length ? feed.diagnostics.map(formatDiagnostic) : ['    none']),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}

/** A diagnostic in words, with where it is: line and column, entry, field. */
export function formatDiagnostic(d: Diagnostic): string {
  const where = [
    d.line !== undefined ? `line ${d.line}${d.column !== undefined ? `:${d.column}` : ''}` : '',
    d.entry !== undefined ? `entry ${d.entry}` : '',
    d.field !== undefined ? `<${d.field}>` : '',
  ].filter(Boolean);
  return `    ${d.severity} ${d.code}${where.length ? ` (${where.join(', ')})` : ''}: ${d.message}`;
}
