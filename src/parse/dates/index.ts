// Dates as feeds write them (RFC 822 and its mistakes, W3C-DTF, ISO 8601, and the rest), read to ISO 8601.

export { parseDate } from './dates.js';
