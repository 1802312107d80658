import { shownTarget } from '../../notify/index.js';
import type { OutboxCounts, StoredDestination } from '../../store/index.js';
import { DESTINATION_KINDS, EVENT_TYPES } from '../../store/index.js';
import { Time } from './health.js';
import { ItemTable } from './item-table.js';
import { PostForm } from './layout.js';

/** One destination with what its outbox holds. */
export interface AlertRow {
  destination: StoredDestination;
  counts: OutboxCounts;
}

/** What the add form was given, shown again when it was refused. */
export interface AlertForm {
  kind?: string | undefined;
  target?: string | undefined;
  events?: readonly string[] | undefined;
  digest?: boolean | undefined;
}

export interface AlertsProps {
  rows: AlertRow[];
  csrf: string;
  now: Date;
  /** Why the add form was refused (a 400). */
  error?: string | undefined;
  form?: AlertForm | undefined;
  /** A webhook just added with a secret tidings made: shown this once, never again. */
  created?: { id: number; secret: string } | undefined;
  /** Whether TIDINGS_SMTP_URL is set: without it, emails wait. */
  smtp: boolean;
}

/** Where a user's alerts go (issue 25): what `tidings notify` does, on a page. */
export function AlertsView(props: AlertsProps) {
  return (
    <section class="panel wide">
      <h1>Alerts</h1>
      <p class="hint">
        tidings tells these destinations when a feed starts failing, recovers, goes silent, is gone or has
        moved, and when a rule with the notify action matches a new entry. Webhooks get the event's JSON,
        signed in <code>X-Tidings-Signature</code>; email and ntfy get it in words.
      </p>
      {props.created && (
        <div class="created-token" role="status">
          <p>
            The secret of destination {props.created.id}, to check <code>X-Tidings-Signature</code> with. Copy
            it now: it will not be shown again.
          </p>
          <input type="text" readonly value={props.created.secret} aria-label="Webhook secret" data-secret />
        </div>
      )}
      <h2>Destinations</h2>
      <DestinationTable {...props} />
      <h2>New destination</h2>
      {props.error && (
        <p class="error" role="alert">
          {props.error}
        </p>
      )}
      {!props.smtp && (
        <p class="hint">No mail server is set (TIDINGS_SMTP_URL): emails wait until there is one.</p>
      )}
      <NewDestinationForm csrf={props.csrf} form={props.form ?? {}} />
    </section>
  );
}

function DestinationTable(props: AlertsProps) {
  return (
    <ItemTable
      columns={['Destination', 'Events', 'Delivery', 'Messages', '']}
      count={props.rows.length}
      empty="No destinations yet."
    >
      {props.rows.map(({ destination: d, counts }) => (
        <tr data-destination={String(d.id)}>
          <td>
            {d.kind} <span class="wrap-anywhere">{shownTarget(d)}</span>
            {d.secret !== undefined && <span class="muted"> (signed)</span>}
          </td>
          <td>
            {d.events === undefined ? 'every event' : d.events.join(', ')}
            {d.digest !== undefined && <>; {d.digest} digest</>}
          </td>
          <td data-health>
            <Delivery destination={d} now={props.now} />
          </td>
          <td>
            {counts.sent} sent, {counts.pending} waiting, {counts.failed} given up
          </td>
          <td>
            <PostForm action={`/alerts/${d.id}/test`} csrf={props.csrf} class="inline">
              <button type="submit">Send a test</button>
            </PostForm>{' '}
            <PostForm action={`/alerts/${d.id}/remove`} csrf={props.csrf} class="inline" dataAction="confirm">
              <button
                type="submit"
                class="danger"
                data-confirm="Remove this destination? What it still had to send is dropped."
              >
                Remove
              </button>
            </PostForm>
          </td>
        </tr>
      ))}
    </ItemTable>
  );
}

/** Whether the destination takes what is sent: failing since when and why, or when it last did. */
function Delivery(props: { destination: StoredDestination; now: Date }) {
  const d = props.destination;
  if (d.failingSince !== undefined)
    return (
      <>
        <strong>failing</strong> since <Time iso={d.failingSince} now={props.now} />
        {d.lastError !== undefined && <div class="muted wrap-anywhere">{d.lastError}</div>}
      </>
    );
  if (d.lastOkAt !== undefined)
    return (
      <>
        working, last sent <Time iso={d.lastOkAt} now={props.now} />
      </>
    );
  return <span class="muted">nothing sent yet</span>;
}

function NewDestinationForm(props: { csrf: string; form: AlertForm }) {
  const { form } = props;
  const events = new Set(form.events ?? []);
  return (
    <PostForm action="/alerts" csrf={props.csrf} class="stack">
      <label>
        Kind{' '}
        <select name="kind">
          {DESTINATION_KINDS.map((kind) => (
            <option value={kind} selected={form.kind === kind}>
              {kind}
            </option>
          ))}
        </select>
      </label>
      <label>
        Target{' '}
        <input
          type="text"
          name="target"
          required
          maxlength={2000}
          value={form.target ?? ''}
          placeholder="https://… (webhook, ntfy topic) or an email address"
        />
      </label>
      <label>
        Secret (webhook; leave empty for a random one){' '}
        <input type="text" name="secret" maxlength={500} autocomplete="off" />
      </label>
      <fieldset class="row">
        <legend>Events (none ticked: every event)</legend>
        {EVENT_TYPES.map((type) => (
          <label>
            <input type="checkbox" name="events" value={type} checked={events.has(type)} /> {type}
          </label>
        ))}
      </fieldset>
      <label>
        <input type="checkbox" name="digest" value="daily" checked={form.digest === true} /> Daily digest of
        what is still broken (email)
      </label>
      <button type="submit" class="primary">
        Add destination
      </button>
    </PostForm>
  );
}
