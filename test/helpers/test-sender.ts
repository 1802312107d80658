// An outbox sender as the notify tests use it: private addresses allowed (local receivers), a short
// timeout, the test clock and no log.
import { silentLogger } from '../../src/log.js';
import { OutboxSender } from '../../src/notify/index.js';
import type { Store } from '../../src/store/index.js';

export function testSender(store: Store, clock: { now: () => Date }, workerId: string): OutboxSender {
  return new OutboxSender({
    store,
    config: { allowPrivateAddresses: true },
    log: silentLogger,
    now: clock.now,
    workerId,
    timeoutMs: 2_000,
  });
}
