import {
  AggregatorRegistry,
  Counter,
  collectDefaultMetrics,
  Gauge,
  Histogram,
  type MetricObjectWithValues,
  type MetricValue,
  Registry,
} from 'prom-client';
import { FEED_HEALTHS, type FeedHealth, HEARTBEAT_STATUSES } from '../model/index.js';
import { feedHealthAt, type PollHooks } from '../poll/index.js';
import { EVENT_TYPES, type EventType, type Store } from '../store/index.js';

// What /metrics tells (issue 25), kept in a registry of each Metrics' own, never prom-client's global
// one: tests build several apps in one process, and each counts only its own polls and requests.

/** Every word of the feed-health page, so that a health no feed has shows as 0, not as missing. */
export { FEED_HEALTHS };

/** How a poll can end: the heartbeat's statuses. */
export const POLL_OUTCOMES = HEARTBEAT_STATUSES;

/** What an alert can be about: the event types of issue 25's alerts and rules, as destinations take them. */
export const ALERT_KINDS = EVENT_TYPES;
export type AlertKind = EventType;

/** Fetches end within the fetch timeout (30 s by default); most take well under a second. */
const FETCH_SECONDS_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60];

/** What the metrics read at scrape time: the feeds in the store, and the clock their health is judged by. */
export interface MetricsDeps {
  store: Store;
  now: () => Date;
}

/**
 * One process's metrics in the Prometheus text format: the feeds by health (read from the store at
 * scrape time), the polls, fetch times and new entries of this process's poller (through pollHooks),
 * the HTTP requests it answered, the alerts it sent, and prom-client's process metrics.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly #polls: Counter<'outcome'>;
  readonly #fetchSeconds: Histogram;
  readonly #entriesStored: Counter;
  readonly #httpRequests: Counter<'route' | 'status'>;
  readonly #alertsSent: Counter<'kind'>;
  #gather: (() => Promise<string>) | undefined;

  constructor(deps: MetricsDeps) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    const feeds = new Gauge({
      name: 'tidings_feeds',
      help: 'Feeds by health, as the feed-health page and tidings status show it.',
      labelNames: ['health'],
      registers,
      // every process of `serve --processes N` reads the same feeds: their sum would count each N times
      aggregator: 'first',
      // read when scraped: any process may have polled since, and health depends on the time
      collect: async () => {
        const counts = await countFeeds(deps.store, deps.now());
        for (const health of FEED_HEALTHS) feeds.set({ health }, counts.get(health) ?? 0);
      },
    });
    this.#polls = new Counter({
      name: 'tidings_polls_total',
      help: "Polls of feeds by this process, by the heartbeat's outcome.",
      labelNames: ['outcome'],
      registers,
    });
    for (const outcome of POLL_OUTCOMES) this.#polls.inc({ outcome }, 0);
    this.#fetchSeconds = new Histogram({
      name: 'tidings_fetch_duration_seconds',
      help: 'How long fetching a feed took, every redirect included, whatever the answer.',
      buckets: FETCH_SECONDS_BUCKETS,
      registers,
    });
    this.#entriesStored = new Counter({
      name: 'tidings_entries_stored_total',
      help: "New entries stored by this process's polls.",
      registers,
    });
    this.#httpRequests = new Counter({
      name: 'tidings_http_requests_total',
      help: 'HTTP requests answered, by the route that matched (its pattern, not the path) and status.',
      labelNames: ['route', 'status'],
      registers,
    });
    this.#alertsSent = new Counter({
      name: 'tidings_alerts_sent_total',
      help: 'Alerts sent to their destinations by this process, by kind.',
      labelNames: ['kind'],
      registers,
    });
    for (const kind of ALERT_KINDS) this.#alertsSent.inc({ kind }, 0);
  }

  /** Hooks for the poller (combineHooks): count each fetch's time, each poll's outcome and new entries. */
  pollHooks(): PollHooks {
    return {
      onFetch: (_feed, outcome) => {
        this.#fetchSeconds.observe(outcome.durationMs / 1000);
      },
      onStored: (_feed, stored) => {
        this.#polls.inc({ outcome: stored.heartbeat.status });
        this.#entriesStored.inc(stored.insertedIds.length);
      },
    };
  }

  /** Counts one answered HTTP request; `route` is the matched pattern (`/feeds/:id`), keeping the series few. */
  countRequest(route: string, status: number): void {
    this.#httpRequests.inc({ route, status: String(status) });
  }

  /** Counts one alert sent (for the alerts of issue 25). */
  countAlertSent(kind: AlertKind): void {
    this.#alertsSent.inc({ kind });
  }

  /**
   * The metrics in the Prometheus text format, with its content type; rejects when the store fails.
   * Those of every process of the server when gathered (gatherWith), else this process's.
   */
  async render(): Promise<{ contentType: string; text: string }> {
    const text = await (this.#gather ?? (() => this.registry.metrics()))();
    // prom-client writes a NaN sample (the event-loop lag before its first reading) as `Nan`; the
    // exposition format spells it NaN, and strict parsers refuse the whole scrape otherwise
    return { contentType: this.registry.contentType, text: text.replace(/ Nan$/gm, ' NaN') };
  }

  /** This process's metrics as prom-client's JSON, for the process that gathers them all. */
  json(): Promise<MetricObjectWithValues<MetricValue<string>>[]> {
    return this.registry.getMetricsAsJSON();
  }

  /**
   * Renders what `gather` answers instead of this process's own metrics: under `serve --processes N`
   * the primary gathers every process's (aggregateMetrics), whichever process a scrape reached.
   */
  gatherWith(gather: () => Promise<string>): void {
    this.#gather = gather;
  }
}

/**
 * The metrics of several processes as one exposition in the Prometheus text format: counters and
 * histograms summed, the feed counts taken once, the process metrics as prom-client aggregates them.
 */
export function aggregateMetrics(
  processes: readonly MetricObjectWithValues<MetricValue<string>>[][],
): Promise<string> {
  return AggregatorRegistry.aggregate([...processes]).metrics();
}

/** How many feeds have each health now. */
async function countFeeds(store: Store, now: Date): Promise<Map<FeedHealth, number>> {
  const counts = new Map<FeedHealth, number>();
  for (const feed of await store.feeds.listSummaries()) {
    const health = feedHealthAt(feed, now);
    counts.set(health, (counts.get(health) ?? 0) + 1);
  }
  return counts;
}
