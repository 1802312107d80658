import type { Channel, StoredFeed } from '../model/index.js';
import type { StoredRule } from '../store/index.js';
import { addRule } from '../subscriptions/index.js';
import { type App, withApp } from './app.js';
import { findFeed } from './subscribe.js';
import { textTable } from './table.js';
import { EXIT_FAILURE, EXIT_USAGE, UserError } from './user-error.js';

export interface AddOptions {
  query?: string;
  channel?: string;
  feed?: string;
  action?: string;
  user?: string;
  database?: string;
}

export interface CommonOptions {
  user?: string;
  database?: string;
}

/** `tidings rule add`. */
export async function runRuleAdd(opts: AddOptions): Promise<void> {
  process.exitCode = await withApp(
    { database: opts.database, user: { name: opts.user, command: 'rule add' } },
    (app) => addCommand(app, opts),
  );
}

/** `tidings rule list`. */
export async function runRuleList(opts: CommonOptions & { json?: boolean }): Promise<void> {
  process.exitCode = await withApp(
    { database: opts.database, user: { name: opts.user, command: 'rule list' } },
    (app) => listCommand(app, opts.json === true),
  );
}

/** `tidings rule remove ID`. */
export async function runRuleRemove(id: string, opts: CommonOptions): Promise<void> {
  const ruleId = parseRuleId(id);
  process.exitCode = await withApp(
    { database: opts.database, user: { name: opts.user, command: 'rule remove' } },
    async (app) => {
      if (!(await app.store.rules.remove(ruleId)))
        throw new UserError(`rule remove: no rule ${id} (tidings rule list shows them)`);
      process.stdout.write(`removed rule ${ruleId}\n`);
      return 0;
    },
  );
}

function parseRuleId(id: string): number {
  const n = /^\d{1,15}$/.test(id) ? Number(id) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1)
    throw new UserError(
      `rule remove: ${JSON.stringify(id)} is not a rule id (tidings rule list shows them)`,
      {
        exitCode: EXIT_USAGE,
      },
    );
  return n;
}

async function addCommand(app: App, opts: AddOptions): Promise<number> {
  let feed: StoredFeed | undefined;
  if (opts.feed !== undefined) {
    feed = await findFeed(app, opts.feed);
    if (feed === undefined)
      throw new UserError(`rule add: no feed ${opts.feed} (tidings status lists yours)`);
  }
  const result = await addRule(
    app.store,
    { query: opts.query ?? '', channel: opts.channel, feed, action: opts.action ?? '' },
    new Date().toISOString(),
  );
  // what does not exist is a failure (1), as a feed id that is none; a request that is no rule is usage (2)
  if (result.kind === 'refused')
    throw new UserError(`rule add: ${result.message}`, {
      exitCode: result.reason === 'not-found' ? EXIT_FAILURE : EXIT_USAGE,
    });
  const names = await scopeNames(app);
  process.stdout.write(`added rule ${result.rule.id}: ${describe(result.rule, names)}\n`);
  return 0;
}

/** Channel names and feed URLs by id, to name a rule's scope. */
async function scopeNames(app: App): Promise<{ channels: Map<number, Channel>; feeds: Map<number, string> }> {
  const channels = new Map((await app.store.channels.list()).map((channel) => [channel.id, channel]));
  const rules = await app.store.rules.list();
  const feeds = new Map<number, string>();
  for (const rule of rules) {
    if (rule.feedId === undefined || feeds.has(rule.feedId)) continue;
    const feed = await app.store.feeds.get(rule.feedId);
    if (feed) feeds.set(rule.feedId, feed.url);
  }
  return { channels, feeds };
}

/** `read "kubernetes -helm" in channel Work, feed https://...`. */
function describe(rule: StoredRule, names: Awaited<ReturnType<typeof scopeNames>>): string {
  const scope = [
    rule.channelId === undefined
      ? ''
      : `channel ${names.channels.get(rule.channelId)?.name ?? rule.channelId}`,
    rule.feedId === undefined ? '' : `feed ${names.feeds.get(rule.feedId) ?? rule.feedId}`,
  ].filter(Boolean);
  return `${rule.action} ${JSON.stringify(rule.query)}${scope.length > 0 ? ` in ${scope.join(', ')}` : ' in every channel'}`;
}

async function listCommand(app: App, json: boolean): Promise<number> {
  const rules = await app.store.rules.list();
  const names = await scopeNames(app);
  if (json) {
    const list = rules.map((rule) => ({
      id: rule.id,
      query: rule.query,
      action: rule.action,
      channel:
        rule.channelId === undefined
          ? null
          : {
              uid: names.channels.get(rule.channelId)?.uid ?? null,
              name: names.channels.get(rule.channelId)?.name ?? null,
            },
      feed: rule.feedId === undefined ? null : { id: rule.feedId, url: names.feeds.get(rule.feedId) ?? null },
      createdAt: rule.createdAt,
    }));
    process.stdout.write(`${JSON.stringify({ rules: list }, null, 2)}\n`);
    return 0;
  }
  if (rules.length === 0) {
    process.stdout.write('no rules yet: tidings rule add --query Q --action read|save|hide|notify\n');
    return 0;
  }
  const rows = rules.map((rule) => [
    String(rule.id),
    rule.action,
    rule.query,
    rule.channelId === undefined
      ? '(all)'
      : (names.channels.get(rule.channelId)?.name ?? String(rule.channelId)),
    rule.feedId === undefined ? '(all)' : (names.feeds.get(rule.feedId) ?? String(rule.feedId)),
    rule.createdAt.slice(0, 10),
  ]);
  process.stdout.write(textTable(['id', 'action', 'query', 'channel', 'feed', 'created'], rows));
  return 0;
}
