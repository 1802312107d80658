// A Google Reader app in miniature: signs in with ClientLogin and sends the Auth token on every call.
import assert from 'node:assert/strict';
import { API_PASSWORD, API_USER, type SyncHarness } from '../helpers/sync-harness.js';

export type Json = Record<string, unknown>;

export interface GReaderClient {
  token: string;
  /** GET /api/greader/reader/api/0/<path> (query string included in `path`). */
  get(path: string): Promise<Response>;
  /** POST /api/greader/reader/api/0/<path> with a form; arrays are repeated parameters. */
  post(path: string, form: Record<string, string | string[]>): Promise<Response>;
  json(path: string): Promise<Json>;
  /** GET /api/greader/reader/atom/<path>: the Atom stream. */
  atom(path: string): Promise<Response>;
}

/** Signs in as the apps do (POST form Email, Passwd) and reads Auth= from the answer's lines. */
export async function signIn(
  h: SyncHarness,
  base = '/api/greader',
  credentials: { email: string; password: string } = { email: API_USER, password: API_PASSWORD },
): Promise<GReaderClient> {
  const res = await h.app.request(`${base}/accounts/ClientLogin`, {
    method: 'POST',
    body: new URLSearchParams({ Email: credentials.email, Passwd: credentials.password }),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  assert.equal(res.status, 200);
  const lines = (await res.text()).split('\n');
  // NetNewsWire and others split each line on "="
  const token = lines.map((line) => line.split('=')).find(([key]) => key === 'Auth')?.[1] ?? '';
  assert.ok(token.length > 20);
  const headers = { authorization: `GoogleLogin auth=${token}` };
  const api = `${base}/reader/api/0/`;
  const client: GReaderClient = {
    token,
    get: (path) => Promise.resolve(h.app.request(`${api}${path}`, { headers })),
    post: (path, form) => {
      const body = new URLSearchParams();
      for (const [key, value] of Object.entries(form))
        for (const v of Array.isArray(value) ? value : [value]) body.append(key, v);
      return Promise.resolve(
        h.app.request(`${api}${path}`, {
          method: 'POST',
          body,
          headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
        }),
      );
    },
    atom: (path) => Promise.resolve(h.app.request(`${base}/reader/atom/${path}`, { headers })),
    async json(path) {
      const res = await client.get(path);
      assert.equal(res.status, 200, `${path}: ${res.status}`);
      return (await res.json()) as Json;
    },
  };
  return client;
}
