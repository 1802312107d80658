import type { Hono } from 'hono';
import type { WebContext, WebEnv } from '../env.js';
import { wantsJson } from '../forms.js';
import { refreshJobsOf } from '../reading-jobs.js';
import { errorPage, renderPage, userOf } from '../render.js';
import { RefreshView } from '../views/index.js';

/** GET /refresh/:id: a background refresh's progress (JSON for the script), then what failed. */
export function registerRefresh(app: Hono<WebEnv>, ctx: WebContext): void {
  app.get('/refresh/:id', (c) => {
    const job = refreshJobsOf(ctx, userOf(c).id).get(c.req.param('id'));
    if (!job)
      return errorPage(c, ctx, 404, 'That refresh is no longer known (the server keeps the last 20).');
    if (wantsJson(c)) {
      const { settled: _settled, ...state } = job;
      return c.json(state);
    }
    // inline-free: the Refresh header reloads the page each second while the refresh runs; the page
    // shows the same moment as the header (the job moves on while the page renders)
    const now = { ...job, failed: [...job.failed] };
    if (!now.finished) c.header('refresh', '1');
    return renderPage(c, ctx, {
      title: `Refreshing ${job.channel.name}`,
      nav: 'reader',
      children: <RefreshView job={now} />,
    });
  });
}
