import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cutJsonItems } from './json-items.js';

describe('cutJsonItems', () => {
  it('keeps the first items and the members after the array', () => {
    const doc = JSON.stringify({
      title: 'a',
      items: [{ id: '1' }, { id: '2,]"' }, { id: '3' }, 4],
      after: [1, 2, 3],
    });
    const { text, cut } = cutJsonItems(doc, 2);
    assert.equal(cut, 2);
    assert.deepEqual(JSON.parse(text), {
      title: 'a',
      items: [{ id: '1' }, { id: '2,]"' }],
      after: [1, 2, 3],
    });
  });

  it('cuts every item when the limit is 0, and none when there are few', () => {
    const doc = '{ "items" : [ {"id":"\\\\"} , "x" ] }';
    assert.deepEqual(JSON.parse(cutJsonItems(doc, 0).text), { items: [] });
    assert.deepEqual(cutJsonItems(doc, 2), { text: doc, cut: 0 });
  });

  it('reads only the top-level items array', () => {
    const doc = JSON.stringify({ nested: { items: [1, 2, 3] }, list: [{ items: [1, 2] }], items: [1, 2, 3] });
    const { text, cut } = cutJsonItems(doc, 1);
    assert.equal(cut, 2);
    assert.deepEqual(JSON.parse(text), {
      nested: { items: [1, 2, 3] },
      list: [{ items: [1, 2] }],
      items: [1],
    });
  });

  it('leaves a document it cannot read as JSON unchanged', () => {
    for (const doc of ['{"items": [1, 2', '"items"', '{"items": "x"}', ''])
      assert.equal(cutJsonItems(doc, 1).text, doc);
  });
});
