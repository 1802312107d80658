import type { OpmlJob } from '../opml-jobs.js';
import { count } from './format.js';
import { PostForm } from './layout.js';

/** Import (upload) and export of the subscriptions as OPML, with the recent imports. */
export function OpmlView(props: { jobs: OpmlJob[]; csrf: string }) {
  return (
    <section class="panel">
      <h1>OPML</h1>
      <h2>Import</h2>
      <p class="hint">
        Follow every feed of an OPML file from another reader. Its folders become channels. Large files import
        in the background: you will see the progress.
      </p>
      <PostForm action="/opml/import" csrf={props.csrf} enctype="multipart/form-data" class="row">
        <input
          type="file"
          name="file"
          accept=".opml,.xml,text/x-opml,application/xml,text/xml"
          required
          aria-label="OPML file"
        />
        <button type="submit" class="primary">
          Import
        </button>
      </PostForm>
      <h2>Export</h2>
      <p>
        <a href="/opml/export" download="tidings-subscriptions.opml">
          Download your subscriptions (OPML 2.0)
        </a>
      </p>
      {props.jobs.length > 0 && (
        <>
          <h2>Recent imports</h2>
          <ul>
            {props.jobs.map((job) => (
              <li>
                <a href={`/opml/jobs/${job.id}`}>{job.fileName}</a>: {phaseWords(job)}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

/** The status of one import; the page reloads itself (Refresh header) until it is finished. */
export function OpmlJobView(props: { job: OpmlJob }) {
  const { job } = props;
  const finished = job.phase === 'done' || job.phase === 'failed';
  return (
    <section class="panel" data-job={job.phase}>
      <h1>Importing {job.fileName}</h1>
      <p class="job-phase" role="status">
        {phaseWords(job)}
      </p>
      <p>
        <label>
          Read {job.subscribed} of {count(job.total, 'outline', 'outlines')}{' '}
          <progress max={Math.max(job.total, 1)} value={job.subscribed}></progress>
        </label>
      </p>
      <p>
        <label>
          Fetched {job.fetched} of {count(job.toFetch, 'new feed', 'new feeds')}{' '}
          <progress max={Math.max(job.toFetch, 1)} value={job.fetched}></progress>
        </label>
      </p>
      {job.error && <p class="error">{job.error}</p>}
      {job.skipped.length > 0 && (
        <section class="opml-skipped">
          <h2>Not followed ({job.skipped.length})</h2>
          <table>
            <thead>
              <tr>
                <th>line</th>
                <th>URL</th>
                <th>why</th>
              </tr>
            </thead>
            <tbody>
              {job.skipped.map((s) => (
                <tr>
                  <td>{s.line}</td>
                  <td class="small">{s.url}</td>
                  <td>{s.reason}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      {job.warnings.length > 0 && (
        <ul class="warnings">
          {job.warnings.map((w) => (
            <li>{w}</li>
          ))}
        </ul>
      )}
      {finished ? (
        <p>
          <a href="/subscriptions">See your subscriptions</a> · <a href="/feeds">Feed health</a>
        </p>
      ) : (
        <p class="muted">This page refreshes itself until the import is done.</p>
      )}
    </section>
  );
}

function phaseWords(job: OpmlJob): string {
  switch (job.phase) {
    case 'subscribing':
      return `Subscribing: ${job.subscribed} of ${count(job.total, 'outline', 'outlines')}`;
    case 'fetching':
      return `Fetching the new feeds: ${job.fetched} of ${job.toFetch}`;
    case 'done':
      return `Finished: followed ${job.followed} of ${count(job.total, 'feed', 'feeds')} (${job.added} new); not followed: ${job.alreadyFollowed} already followed, ${job.failed} failed`;
    case 'failed':
      return `Failed: ${job.error ?? 'unknown error'}`;
  }
}
