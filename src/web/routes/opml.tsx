import type { Hono } from 'hono';
import { exportOpml } from '../../subscriptions/index.js';
import type { WebContext, WebEnv } from '../env.js';
import { formOf } from '../forms.js';
import { depsOf, errorPage, renderPage, sessionOf, userOf } from '../render.js';
import { OpmlJobView, OpmlView } from '../views/index.js';

/** GET /opml, /opml/export, /opml/jobs/:id; POST /opml/import */
export function registerOpml(app: Hono<WebEnv>, ctx: WebContext): void {
  app.get('/opml', (c) => {
    const children = <OpmlView jobs={ctx.jobs.list(userOf(c).id)} csrf={sessionOf(c).csrf} />;
    return renderPage(c, ctx, { title: 'OPML', nav: 'opml', children });
  });
  app.get('/opml/export', async (c) => {
    const text = await exportOpml(depsOf(c));
    c.header('content-type', 'text/x-opml; charset=utf-8');
    c.header('content-disposition', 'attachment; filename="tidings-subscriptions.opml"');
    return c.body(text);
  });
  app.post('/opml/import', async (c) => {
    const file = (await formOf(c))['file'];
    if (!(file instanceof File) || file.size === 0)
      return errorPage(c, ctx, 400, 'Choose an OPML file to import.');
    const job = ctx.jobs.start(depsOf(c), await file.text(), file.name || 'subscriptions.opml');
    return c.redirect(`/opml/jobs/${job.id}`, 303);
  });
  app.get('/opml/jobs/:id', (c) => {
    const job = ctx.jobs.get(userOf(c).id, c.req.param('id'));
    if (!job) return errorPage(c, ctx, 404, 'There is no such import (the server may have restarted).');
    if (job.phase !== 'done' && job.phase !== 'failed') c.header('refresh', '1');
    return renderPage(c, ctx, { title: 'Importing OPML', nav: 'opml', children: <OpmlJobView job={job} /> });
  });
}
