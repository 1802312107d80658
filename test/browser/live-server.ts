import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { hashPassword, PASSWORD_SETTING } from '../../src/auth/password-hash.js';
import { silentLogger } from '../../src/log.js';
import { createPollDeps } from '../../src/poll/deps-factory.js';
import { PollEvents } from '../../src/poll/events.js';
import { createApp } from '../../src/server/app.js';
import type { Store } from '../../src/store/index.js';
import { TEST_CONFIG } from '../helpers/poll-harness.js';
import { storeBackends } from '../helpers/temp-store.js';

export const PASSWORD = 'correct horse battery staple';

/** The real app served over HTTP on 127.0.0.1 with a temp SQLite store, as `tidings serve` runs it. */
export interface LiveServer {
  url: string;
  store: Store;
  close(): Promise<void>;
}

export async function startLiveServer(): Promise<LiveServer> {
  const backend = storeBackends()[0];
  if (!backend) throw new Error('live-server: no SQLite backend');
  const store = await backend.open();
  await store.accounts.setUserSetting(PASSWORD_SETTING, await hashPassword(PASSWORD, { N: 1024 }));
  // TIDINGS_ALLOW_PRIVATE_ADDRESSES semantics: the fixture feeds live on 127.0.0.1
  const config = { ...TEST_CONFIG, allowPrivateAddresses: true };
  const poll = createPollDeps(store, config, silentLogger);
  const app = createApp({
    store,
    config,
    log: silentLogger,
    poll,
    events: new PollEvents(),
    indieAuth: {},
    now: () => new Date(),
  });
  const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    store,
    async close() {
      if ('closeAllConnections' in server) server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await poll.preparer.close();
      await backend.cleanup();
    },
  };
}
