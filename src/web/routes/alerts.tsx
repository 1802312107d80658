import type { Context, Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import {
  checkDestination,
  DestinationInputError,
  OutboxSender,
  sendTest,
  shownTarget,
} from '../../notify/index.js';
import type { WebContext, WebEnv } from '../env.js';
import { field, fields, idOf } from '../forms.js';
import { depsOf, errorPage, redirectWith, renderPage, sessionOf } from '../render.js';
import { type AlertForm, type AlertsProps, AlertsView } from '../views/index.js';

// What the page's form calls the fields, in checkDestination's messages.
const LABELS = { secret: 'The secret', events: 'Events', digest: 'The digest' };
const NO_SUCH = 'There is no such destination.';

/**
 * GET /alerts; POST /alerts (add), /alerts/:id/remove, /alerts/:id/test: the signed-in user's alert
 * destinations, as `tidings notify` keeps them (issue 25). The user's own store (depsOf) sees only their
 * destinations, so another user's id is as missing as one that never was.
 */
export function registerAlerts(app: Hono<WebEnv>, ctx: WebContext): void {
  app.get('/alerts', (c) => alertsPage(c, ctx));
  app.post('/alerts', async (c) => {
    const secret = await field(c, 'secret');
    const events = await fields(c, 'events');
    const form: AlertForm = {
      kind: await field(c, 'kind'),
      target: await field(c, 'target'),
      events,
      digest: (await field(c, 'digest')) !== '',
    };
    let destination: ReturnType<typeof checkDestination>;
    try {
      destination = checkDestination(
        {
          kind: form.kind ?? '',
          target: form.target ?? '',
          secret: secret === '' ? undefined : secret,
          // none ticked: every event
          events: events.length === 0 ? undefined : events,
          digest: form.digest ? 'daily' : undefined,
        },
        LABELS,
      );
    } catch (error) {
      if (!(error instanceof DestinationInputError)) throw error;
      return alertsPage(c, ctx, { error: `${error.message}.`, form }, 400);
    }
    const stored = await depsOf(c).store.notify.add(destination, ctx.deps.now().toISOString());
    // a secret tidings made is answered with the page itself, not a redirect: it is shown this once
    if (secret === '' && stored.secret !== undefined)
      return alertsPage(c, ctx, { created: { id: stored.id, secret: stored.secret } });
    return redirectWith(
      c,
      ctx,
      '/alerts',
      `Added destination ${stored.id}: ${stored.kind} ${shownTarget(stored)}.`,
    );
  });
  app.post('/alerts/:id/remove', async (c) => {
    const id = idOf(c.req.param('id'));
    if (!id || !(await depsOf(c).store.notify.remove(id))) return errorPage(c, ctx, 404, NO_SUCH);
    return redirectWith(c, ctx, '/alerts', `Removed destination ${id}.`);
  });
  app.post('/alerts/:id/test', async (c) => {
    const id = idOf(c.req.param('id'));
    const deps = depsOf(c);
    const destination = id === undefined ? undefined : await deps.store.notify.get(id);
    if (!destination) return errorPage(c, ctx, 404, NO_SUCH);
    // the same way out as the outbox's messages: the SSRF guard, the mail server, the timeout
    const sender = new OutboxSender({
      store: deps.store,
      config: deps.config,
      log: deps.log,
      now: deps.now,
      workerId: deps.poll.workerId,
    });
    try {
      const result = await sendTest(deps.store, destination, sender.context, deps.now());
      const what = `Destination ${destination.id} (${destination.kind} ${destination.target})`;
      const message =
        result.error === undefined
          ? `${what} answered: ${result.delivered?.answer ?? ''}`
          : `${what} failed the test: ${result.error}`;
      return redirectWith(c, ctx, '/alerts', message);
    } finally {
      sender.close();
    }
  });
}

async function alertsPage(
  c: Context<WebEnv>,
  ctx: WebContext,
  extra: Pick<AlertsProps, 'error' | 'form' | 'created'> = {},
  status: ContentfulStatusCode = 200,
): Promise<Response> {
  const { store, config } = depsOf(c);
  const destinations = await store.notify.list();
  const rows = await Promise.all(
    destinations.map(async (destination) => ({
      destination,
      counts: await store.notify.counts(destination.id),
    })),
  );
  const children = (
    <AlertsView
      rows={rows}
      csrf={sessionOf(c).csrf}
      now={ctx.deps.now()}
      smtp={config.smtpUrl !== undefined}
      {...extra}
    />
  );
  return renderPage(c, ctx, { title: 'Alerts', nav: 'alerts', children }, status);
}
