import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MicrosubError } from './errors.js';
import { foldPairs, jsonPairs, MAX_VALUE_LENGTH, MAX_VALUES, Params, readParams } from './params.js';

function post(body: string, contentType: string | undefined, query = ''): Request {
  const headers: Record<string, string> = contentType ? { 'content-type': contentType } : {};
  return new Request(`http://localhost/microsub${query}`, { method: 'POST', body, headers });
}

describe('foldPairs', () => {
  it('folds x, x[] and x[N] into one name', () => {
    const folded = foldPairs([
      ['entry', '1'],
      ['entry[]', '2'],
      ['channels[0]', 'a'],
    ]);
    assert.deepEqual(folded.get('entry'), ['1', '2']);
    assert.deepEqual(folded.get('channels'), ['a']);
  });

  it('orders indexed values by their index (Indigenous)', () => {
    const folded = foldPairs([
      ['channels[1]', 'second'],
      ['channels[0]', 'first'],
      ['channels[10]', 'eleventh'],
      ['channels[2]', 'third'],
    ]);
    assert.deepEqual(folded.get('channels'), ['first', 'second', 'third', 'eleventh']);
  });

  it('keeps a name with brackets inside it whole', () => {
    assert.deepEqual(foldPairs([['a[b]', 'x']]).get('a[b]'), ['x']);
  });
});

describe('jsonPairs', () => {
  it('turns scalars into strings and arrays into repeated names, skipping objects and null', () => {
    assert.deepEqual(
      jsonPairs({ action: 'timeline', limit: 5, flag: true, entry: ['1', 2], x: null, o: { a: 1 } }),
      [
        ['action', 'timeline'],
        ['limit', '5'],
        ['flag', 'true'],
        ['entry', '1'],
        ['entry', '2'],
      ],
    );
  });

  it('refuses a body that is not an object', () => {
    assert.throws(() => jsonPairs([1, 2]), MicrosubError);
    assert.throws(() => jsonPairs('x'), MicrosubError);
  });
});

describe('readParams', () => {
  it('reads a GET query string', async () => {
    const params = await readParams(new Request('http://localhost/microsub?action=timeline&channel=home'));
    assert.equal(params.one('action'), 'timeline');
    assert.equal(params.one('channel'), 'home');
    assert.equal(params.one('missing'), undefined);
  });

  it('reads a form-encoded POST with PHP arrays', async () => {
    const params = await readParams(
      post('action=timeline&method=mark_read&entry[]=1&entry[]=2', 'application/x-www-form-urlencoded'),
    );
    assert.equal(params.one('method'), 'mark_read');
    assert.deepEqual(params.all('entry'), ['1', '2']);
  });

  it('reads a POST whose parameters are all in the query string, with an empty body (Together)', async () => {
    const params = await readParams(
      post('', 'application/x-www-form-urlencoded', '?action=follow&channel=c&url=u'),
    );
    assert.equal(params.one('action'), 'follow');
    assert.equal(params.one('url'), 'u');
  });

  it('lets the body win over the query string for the same name', async () => {
    const params = await readParams(
      post('channel=body', 'application/x-www-form-urlencoded', '?channel=query&action=x'),
    );
    assert.equal(params.one('channel'), 'body');
    assert.equal(params.one('action'), 'x');
  });

  it('reads a JSON body', async () => {
    const params = await readParams(
      post('{"action":"channels","method":"order","channels":["a","b"]}', 'application/json'),
    );
    assert.deepEqual(params.all('channels'), ['a', 'b']);
  });

  it('reads a multipart body', async () => {
    const form = new FormData();
    form.append('action', 'channels');
    form.append('name', 'Blogs');
    const params = await readParams(new Request('http://localhost/microsub', { method: 'POST', body: form }));
    assert.equal(params.one('name'), 'Blogs');
  });

  it('reads a body without a Content-Type as a form', async () => {
    const request = new Request('http://localhost/microsub', { method: 'POST', body: 'action=channels' });
    request.headers.delete('content-type');
    assert.equal((await readParams(request)).one('action'), 'channels');
  });

  it('answers invalid JSON with a 400', async () => {
    await assert.rejects(
      readParams(post('{nope', 'application/json')),
      (e: MicrosubError) => e.status === 400,
    );
  });

  it('treats empty values as absent', async () => {
    const params = await readParams(post('channel=&entry[]=&entry[]=3', 'application/x-www-form-urlencoded'));
    assert.equal(params.one('channel'), undefined);
    assert.deepEqual(params.all('entry'), ['3']);
  });

  it('refuses two values of a one-value parameter, and too many or too long values, with a 400', () => {
    const params = new Params(
      new Map([
        ['channel', ['a', 'b']],
        ['entry', Array.from({ length: MAX_VALUES + 1 }, (_, i) => String(i))],
        ['url', ['x'.repeat(MAX_VALUE_LENGTH + 1)]],
        ['ok', ['  one  ', '']],
      ]),
    );
    const isBadRequest = (e: MicrosubError) => e.status === 400;
    assert.throws(() => params.one('channel'), isBadRequest);
    assert.deepEqual(params.all('channel'), ['a', 'b']);
    assert.throws(() => params.all('entry'), isBadRequest);
    assert.throws(() => params.one('url'), isBadRequest);
    assert.equal(params.one('ok'), 'one');
  });
});
