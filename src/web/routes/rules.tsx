import type { Context, Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { addRule } from '../../subscriptions/index.js';
import type { WebContext, WebEnv } from '../env.js';
import { field, idOf } from '../forms.js';
import { depsOf, errorPage, redirectWith, renderPage, sessionOf } from '../render.js';
import { type RuleForm, type RulesProps, RulesView } from '../views/index.js';

/**
 * GET /rules; POST /rules (add), /rules/:id/remove: the signed-in user's rules, as `tidings rule` keeps
 * them (issue 25), decided by addRule for both. The user's own store sees only their rules.
 */
export function registerRules(app: Hono<WebEnv>, ctx: WebContext): void {
  app.get('/rules', (c) => rulesPage(c, ctx));
  app.post('/rules', async (c) => {
    const form: RuleForm = {
      query: await field(c, 'query'),
      action: await field(c, 'action'),
      channel: await field(c, 'channel'),
    };
    const result = await addRule(
      depsOf(c).store,
      {
        query: form.query ?? '',
        action: form.action ?? '',
        channel: form.channel === '' ? undefined : form.channel,
      },
      ctx.deps.now().toISOString(),
    );
    if (result.kind === 'refused') {
      const message = result.message.charAt(0).toUpperCase() + result.message.slice(1);
      return rulesPage(c, ctx, { error: `${message}.`, form }, 400);
    }
    return redirectWith(c, ctx, '/rules', `Added rule ${result.rule.id}.`);
  });
  app.post('/rules/:id/remove', async (c) => {
    const id = idOf(c.req.param('id'));
    if (!id || !(await depsOf(c).store.rules.remove(id)))
      return errorPage(c, ctx, 404, 'There is no such rule.');
    return redirectWith(c, ctx, '/rules', `Removed rule ${id}.`);
  });
}

async function rulesPage(
  c: Context<WebEnv>,
  ctx: WebContext,
  extra: Pick<RulesProps, 'error' | 'form'> = {},
  status: ContentfulStatusCode = 200,
): Promise<Response> {
  const { store } = depsOf(c);
  const [rules, channels] = await Promise.all([store.rules.list(), store.channels.list()]);
  const feeds = new Map<number, string>();
  for (const rule of rules) {
    if (rule.feedId === undefined || feeds.has(rule.feedId)) continue;
    const feed = await store.feeds.get(rule.feedId);
    if (feed) feeds.set(rule.feedId, feed.url);
  }
  const children = (
    <RulesView rules={rules} channels={channels} feeds={feeds} csrf={sessionOf(c).csrf} {...extra} />
  );
  return renderPage(c, ctx, { title: 'Rules', nav: 'rules', children }, status);
}
