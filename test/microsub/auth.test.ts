// Tokens, scopes, IndieAuth verification, CORS and errors: 401 without a valid token, 403 for a missing
// scope, 400 for bad input, and never a 500.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { send, startServer, type TestServer } from '../helpers/http-server.js';
import { storeBackends } from '../helpers/temp-store.js';
import { type Harness, openHarness } from './harness.js';

for (const backend of storeBackends()) {
  describe(`microsub auth and errors (${backend.name})`, { skip: backend.skip }, () => {
    let h: Harness;
    let endpoint: TestServer;
    let endpointCalls = 0;
    let channel: string;

    before(async () => {
      endpoint = await startServer({
        '/token': (req, res) => {
          endpointCalls++;
          const auth = req.headers.authorization ?? '';
          if (auth === 'Bearer json-token')
            send(
              res,
              200,
              JSON.stringify({
                me: 'HTTPS://owner.example',
                scope: 'read follow',
                client_id: 'https://monocle.p3k.io/',
              }),
              { 'content-type': 'application/json' },
            );
          else if (auth === 'Bearer form-token')
            send(res, 200, 'me=https%3A%2F%2Fowner.example%2F&scope=read+channels', {
              'content-type': 'application/x-www-form-urlencoded',
            });
          else if (auth === 'Bearer stranger-token')
            send(res, 200, JSON.stringify({ me: 'https://someone-else.example/', scope: 'read' }), {
              'content-type': 'application/json',
            });
          else if (auth === 'Bearer garbage-token')
            send(res, 200, '{"me": ', { 'content-type': 'application/json' });
          else if (auth === 'Bearer inactive-token')
            send(res, 200, '{"active": false}', { 'content-type': 'application/json' });
          else
            send(res, 401, JSON.stringify({ error: 'unauthorized' }), { 'content-type': 'application/json' });
        },
      });
      h = await openHarness(backend, {
        indieAuth: { tokenEndpoint: `${endpoint.url}/token`, me: 'https://owner.example/' },
      });
      channel = (await h.post({ action: 'channels', name: 'Auth' })).body['uid'] as string;
    });

    after(async () => {
      await endpoint.close();
      await h.close();
      await backend.cleanup();
    });

    it('answers 401 without a token and with an unknown one', async () => {
      const none = await h.get({ action: 'channels' }, null);
      assert.equal(none.status, 401);
      assert.equal(none.body['error'], 'unauthorized');
      assert.equal(none.headers.get('www-authenticate'), 'Bearer');
      assert.equal((await h.get({ action: 'channels' }, 'wrong')).status, 401);
    });

    it('takes the token from the access_token parameter too', async () => {
      assert.equal((await h.get({ action: 'channels', access_token: h.token }, null)).status, 200);
      const posted = await h.post(
        { action: 'channels', name: 'Via param', access_token: h.token },
        { token: null },
      );
      assert.equal(posted.status, 200);
    });

    it('answers 401 for a revoked token', async () => {
      const token = await h.tokenWith('read');
      assert.equal((await h.get({ action: 'channels' }, token)).status, 200);
      const stored = (await h.store.accounts.listTokens()).at(-1)!;
      await h.store.accounts.revokeToken(stored.id, h.clock.now().toISOString());
      assert.equal((await h.get({ action: 'channels' }, token)).status, 401);
    });

    it('enforces scopes per action with 403 insufficient_scope', async () => {
      const read = await h.tokenWith('read');
      const follow = await h.tokenWith('follow');
      const channels = await h.tokenWith('channels');
      const expect = async (
        status: number,
        answer: Promise<{ status: number; body: Record<string, unknown> }>,
      ) => {
        const got = await answer;
        assert.equal(got.status, status, JSON.stringify(got.body));
        if (status === 403) assert.equal(got.body['error'], 'insufficient_scope');
      };
      await expect(200, h.get({ action: 'channels' }, read));
      await expect(403, h.post({ action: 'channels', name: 'x' }, { token: read }));
      await expect(200, h.post({ action: 'channels', name: 'x' }, { token: channels }));
      await expect(403, h.get({ action: 'channels' }, follow));
      await expect(200, h.get({ action: 'timeline', channel }, read));
      await expect(403, h.get({ action: 'timeline', channel }, follow));
      // mark_read: read or channels; remove: channels
      await expect(
        404,
        h.post({ action: 'timeline', channel, method: 'mark_read', entry: '1' }, { token: read }),
      );
      await expect(
        404,
        h.post({ action: 'timeline', channel, method: 'mark_read', entry: '1' }, { token: channels }),
      );
      await expect(
        403,
        h.post({ action: 'timeline', channel, method: 'mark_read', entry: '1' }, { token: follow }),
      );
      await expect(
        403,
        h.post({ action: 'timeline', channel, method: 'remove', entry: '1' }, { token: read }),
      );
      await expect(403, h.post({ action: 'follow', channel, url: 'https://x.example/' }, { token: read }));
      await expect(403, h.post({ action: 'unfollow', channel, url: 'https://x.example/' }, { token: read }));
      await expect(200, h.get({ action: 'follow', channel }, follow));
      await expect(403, h.post({ action: 'mute', channel, url: 'https://x.example/' }, { token: read }));
      await expect(403, h.post({ action: 'block', channel, url: 'https://x.example/' }, { token: read }));
      await expect(200, h.get({ action: 'mute', channel }, read));
      await expect(403, h.post({ action: 'search', channel, query: 'x' }, { token: follow }));
      await expect(403, h.get({ action: 'events' }, follow));
    });

    it('verifies tokens with the IndieAuth token endpoint, JSON or form answers, me modulo case and slash', async () => {
      const json = await h.get({ action: 'channels' }, 'json-token');
      assert.equal(json.status, 200);
      const form = await h.post({ action: 'channels', name: 'By IndieAuth' }, { token: 'form-token' });
      assert.equal(form.status, 200, JSON.stringify(form.body));
      // json-token has no channels scope
      assert.equal((await h.post({ action: 'channels', name: 'no' }, { token: 'json-token' })).status, 403);
    });

    it('refuses endpoint tokens of someone else, inactive ones, and answers it cannot read, with 401', async () => {
      for (const token of ['stranger-token', 'garbage-token', 'inactive-token', 'unknown-token'])
        assert.equal((await h.get({ action: 'channels' }, token)).status, 401, token);
    });

    it('caches what the token endpoint said for a while', async () => {
      const before = endpointCalls;
      await h.get({ action: 'channels' }, 'json-token');
      await h.get({ action: 'channels' }, 'json-token');
      assert.equal(endpointCalls, before, 'json-token was verified in an earlier test and cached');
      h.clock.advance(3 * 60_000);
      await h.get({ action: 'channels' }, 'json-token');
      assert.equal(endpointCalls, before + 1);
    });

    it('answers CORS preflights and sends CORS headers', async () => {
      const preflight = await h.app.request('/microsub', {
        method: 'OPTIONS',
        headers: {
          origin: 'https://monocle.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization',
        },
      });
      assert.equal(preflight.status, 204);
      assert.equal(preflight.headers.get('access-control-allow-origin'), '*');
      assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /authorization/i);
      // what an EventSource polyfill asks for with its token header
      const sse = await h.app.request('/microsub', {
        method: 'OPTIONS',
        headers: {
          origin: 'https://monocle.example',
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'authorization, cache-control, last-event-id',
        },
      });
      const allowed = (sse.headers.get('access-control-allow-headers') ?? '').toLowerCase();
      for (const header of ['authorization', 'cache-control', 'last-event-id'])
        assert.ok(allowed.includes(header), `${header} in ${allowed}`);
      assert.equal(sse.headers.get('access-control-allow-credentials'), null);
      const get = await h.get({ action: 'channels' });
      assert.equal(get.headers.get('access-control-allow-origin'), '*');
    });

    it('answers a method other than GET and POST with a JSON 405', async () => {
      for (const method of ['PUT', 'DELETE', 'PATCH']) {
        const res = await h.app.request('/microsub?action=channels', { method });
        assert.equal(res.status, 405, method);
        assert.equal(res.headers.get('allow'), 'GET, POST, OPTIONS');
        const body = (await res.json()) as { error?: string };
        assert.equal(body.error, 'invalid_request');
      }
    });

    it('answers nonsense with 4xx JSON errors, never a 500', async () => {
      const weird: Record<string, string | string[]>[] = [
        {},
        { action: 'launch' },
        { action: ['channels', 'timeline'] },
        { action: 'timeline', channel: ['a', 'b'] },
        { action: 'timeline', channel, after: '\u0000' },
        { action: 'timeline', channel, after: 'x'.repeat(5000) },
        { action: 'timeline', channel, limit: '-1' },
        { action: 'timeline', channel, limit: '99999999999999999999' },
        { action: 'timeline', channel, source: 'https://not-followed.example/' },
        { action: 'search' },
        { action: 'preview', url: 'ftp://x' },
        { action: 'follow' },
        { action: 'mute', channel: '\u{1F600}', url: 'https://x.example/' },
        { action: 'unfollow', channel },
      ];
      for (const params of weird) {
        for (const answer of [
          await h.get(params),
          await h.post(params),
          await h.post(params, { style: 'json' }),
        ]) {
          assert.ok(
            (answer.status >= 400 && answer.status < 500) || answer.status === 200,
            `${JSON.stringify(params)} -> ${answer.status}`,
          );
          assert.notEqual(answer.status, 500);
          if (answer.status >= 400) assert.equal(typeof answer.body['error_description'], 'string');
        }
      }
      const badJson = await h.app.request('/microsub', {
        method: 'POST',
        headers: { authorization: `Bearer ${h.token}`, 'content-type': 'application/json' },
        body: '{"action": ',
      });
      assert.equal(badJson.status, 400);
      const huge = await h.app.request('/microsub', {
        method: 'POST',
        headers: { authorization: `Bearer ${h.token}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: `action=channels&name=${'x'.repeat(2 * 1024 * 1024)}`,
      });
      assert.equal(huge.status, 413);
    });
  });
}
