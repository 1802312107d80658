// A WebSub hub and publisher on 127.0.0.1, written from the W3C WebSub recommendation (sections 5-8):
// the hub takes subscription requests (form POST), answers 202, then verifies intent with a GET to the
// callback (mode, topic, challenge, lease) and counts the subscription only when the challenge comes back
// with a 2xx; it distributes content with an X-Hub-Signature HMAC of the body. The publisher serves topic
// documents with whatever headers a test gives (Link: <hub>; rel="hub").
import { createHmac, randomBytes } from 'node:crypto';
import { type RecordedRequest, type Routes, send, startServer, type TestServer } from './http-server.js';

/** One subscription request the hub received, and how its verification went. */
export interface HubRequest {
  mode: string;
  topic: string;
  callback: string;
  secret?: string;
  leaseSeconds?: number;
  /** The hub's GET to the callback: its status, and whether the challenge came back. */
  verification?: { status: number; echoed: boolean };
}

export interface HubOptions {
  /** What the hub answers a subscription request (default 202; 500 is a hub that fails). */
  status: number;
  /** Deny every request with this reason (hub.mode=denied). */
  deny?: string;
  /** The lease the hub grants (default: what was asked). */
  leaseSeconds?: number;
}

export interface LocalHub {
  /** http://127.0.0.1:PORT: the publisher's documents are under it. */
  url: string;
  /** The hub's own endpoint, `${url}/hub`. */
  hubUrl: string;
  server: TestServer;
  /** Mutable: add topic documents and redirects here. */
  routes: Routes;
  options: HubOptions;
  received: HubRequest[];
  /** The verified subscriptions, by callback. */
  subscribers: Map<string, HubRequest>;
  /** Serves a topic document at `path`. */
  serve(path: string, body: string, type: string, headers?: Record<string, string>): void;
  /** Distributes `body` to every verified subscriber of `topic`; resolves to their answers' statuses. */
  publish(topic: string, body: string, type: string, sign?: Signing): Promise<number[]>;
  /** Resolves once every verification started so far has ended. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

/** How a delivery is signed: an algorithm (default sha256), a wrong secret, or no signature at all. */
export type Signing = { algorithm?: string; secret?: string } | 'unsigned';

export async function startLocalHub(): Promise<LocalHub> {
  const routes: Routes = {};
  const received: HubRequest[] = [];
  const subscribers = new Map<string, HubRequest>();
  const options: HubOptions = { status: 202 };
  const pending = new Set<Promise<void>>();
  const verify = async (request: HubRequest) => {
    const url = new URL(request.callback);
    const challenge = randomBytes(12).toString('hex');
    url.searchParams.set('hub.topic', request.topic);
    if (options.deny !== undefined) {
      url.searchParams.set('hub.mode', 'denied');
      url.searchParams.set('hub.reason', options.deny);
    } else {
      url.searchParams.set('hub.mode', request.mode);
      url.searchParams.set('hub.challenge', challenge);
      if (request.mode === 'subscribe')
        url.searchParams.set(
          'hub.lease_seconds',
          String(options.leaseSeconds ?? request.leaseSeconds ?? 86400),
        );
    }
    const response = await fetch(url);
    const text = await response.text();
    const echoed = response.status >= 200 && response.status < 300 && text === challenge;
    request.verification = { status: response.status, echoed };
    if (!echoed || options.deny !== undefined) return;
    if (request.mode === 'subscribe') subscribers.set(request.callback, request);
    else subscribers.delete(request.callback);
  };
  routes['POST /hub'] = (_req, res, recorded: RecordedRequest) => {
    const form = new URLSearchParams(recorded.body.toString('utf8'));
    const lease = form.get('hub.lease_seconds');
    const request: HubRequest = {
      mode: form.get('hub.mode') ?? '',
      topic: form.get('hub.topic') ?? '',
      callback: form.get('hub.callback') ?? '',
      ...(form.get('hub.secret') !== null ? { secret: form.get('hub.secret') as string } : {}),
      ...(lease !== null ? { leaseSeconds: Number(lease) } : {}),
    };
    received.push(request);
    if (options.status !== 202 || !/^https?:/.test(request.callback) || request.topic === '') {
      send(res, options.status === 202 ? 400 : options.status, 'hub: no');
      return;
    }
    send(res, 202, 'accepted');
    // verification of intent comes after the answer (WebSub 5.3: the hub verifies asynchronously)
    const task = verify(request)
      .catch(() => undefined)
      .finally(() => pending.delete(task));
    pending.add(task);
  };
  const server = await startServer(routes);
  return {
    url: server.url,
    hubUrl: `${server.url}/hub`,
    server,
    routes,
    options,
    received,
    subscribers,
    serve(path, body, type, headers = {}) {
      routes[path] = (_req, res) => send(res, 200, body, { 'content-type': type, ...headers });
    },
    async publish(topic, body, type, sign = {}) {
      const statuses: number[] = [];
      for (const sub of subscribers.values()) {
        if (sub.topic !== topic) continue;
        const headers: Record<string, string> = { 'content-type': type, link: `<${topic}>; rel="self"` };
        if (sign !== 'unsigned' && sub.secret !== undefined)
          headers['x-hub-signature'] = signature(sign.algorithm ?? 'sha256', sign.secret ?? sub.secret, body);
        const response = await fetch(sub.callback, { method: 'POST', body, headers });
        await response.arrayBuffer();
        statuses.push(response.status);
      }
      return statuses;
    },
    async settled() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
    close: () => server.close(),
  };
}

/** WebSub 8: X-Hub-Signature is `method=signature`, the hex HMAC of the body keyed with hub.secret. */
function signature(algorithm: string, secret: string, body: string): string {
  return `${algorithm}=${createHmac(algorithm, secret).update(body).digest('hex')}`;
}
