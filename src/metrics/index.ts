// What /metrics tells (issue 25): one registry of prom-client per Metrics, with tidings' own metrics
// (feeds by health, polls, fetch times, new entries, HTTP requests, alerts) and the process's.
export {
  ALERT_KINDS,
  type AlertKind,
  aggregateMetrics,
  FEED_HEALTHS,
  Metrics,
  type MetricsDeps,
  POLL_OUTCOMES,
} from './metrics.js';
