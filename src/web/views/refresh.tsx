import type { RefreshJob } from '../../reading/index.js';
import { count } from './format.js';
import { channelHref } from './hrefs.js';

const STATUS_WORDS: Record<string, string> = {
  fetch_error: 'fetch error',
  parse_error: 'parse error',
  encoding_error: 'encoding error',
  gone: 'gone',
};

/** A refresh's progress (the page reloads itself while it runs), then its summary and failures. */
export function RefreshView(props: { job: RefreshJob }) {
  const { job } = props;
  return (
    <section class="panel" data-refresh={job.finished ? 'done' : 'running'}>
      <h1>Refreshing {job.channel.name}</h1>
      {job.finished ? (
        <p class="flash" role="status">
          Refreshed {count(job.done, 'feed', 'feeds')}: {count(job.newEntries, 'new entry', 'new entries')}
          {job.failed.length > 0 ? `; ${job.failed.length} failed.` : '.'}
        </p>
      ) : (
        <p role="status">
          <progress max={job.total} value={job.done} /> {job.done} of {count(job.total, 'feed', 'feeds')}{' '}
          fetched, {count(job.newEntries, 'new entry', 'new entries')} so far.
        </p>
      )}
      {job.failed.length > 0 && (
        <>
          <h2>Failed</h2>
          <ul class="refresh-failures">
            {job.failed.map((f) => (
              <li>
                <a href={`/feeds/${f.feedId}`}>{f.title}</a>: {STATUS_WORDS[f.status] ?? f.status}
              </li>
            ))}
          </ul>
        </>
      )}
      <p>
        <a href={channelHref(job.channel.uid)}>Back to {job.channel.name}</a>
      </p>
    </section>
  );
}
