// Alerts on their way out (issue 25): the outbox's sender (claims, sends, retries with backoff), delivery
// to webhooks (signed JSON), ntfy topics and email (SMTP), the events in words, and the signature.

export { GIVE_UP_AFTER_MS, RETRY_DELAYS_MS, retryTime } from './backoff.js';
export {
  DELIVERY_TIMEOUT_MS,
  type Delivered,
  type DeliveryContext,
  DeliveryError,
  deliver,
  headerText,
} from './deliver.js';
export {
  checkDestination,
  type DestinationInput,
  DestinationInputError,
  type DestinationLabels,
  MIN_SECRET_LENGTH,
  shownTarget,
} from './destination.js';
export { configuredMailer, type Mailer, smtpMailer } from './mail.js';
export { OutboxSender, type SenderDeps, type SendSummary, sendTest } from './sender.js';
export { newSecret, SIGNATURE_HEADER, signBody, verifySignature } from './sign.js';
export { diagnosticLines, type EventWords, eventWords } from './words.js';
