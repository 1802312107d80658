import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseFeed } from '../index.js';
import { recoverJson } from './json-recover.js';

const FEED_HEAD = '{"version":"https://jsonfeed.org/version/1.1","title":"T",';
const ids = (text: string) => parseFeed(text).entries.map((e) => [e.id, e.title]);

describe('JSON Feed recovery', () => {
  it('reads on at the next item after one broken inside (an unescaped quote)', () => {
    const text = `${FEED_HEAD}"items":[{"id":"1","title":"a"},{"id":"2","title":"He said "hi" ok","url":"http://x.example/2"},{"id":"3","title":"c"},{"id":"4","title":"d"}]}`;
    const result = parseFeed(text);
    assert.ok(result.bozo);
    // the broken item keeps what came before its break; the items after it are whole
    assert.deepEqual(ids(text), [
      ['1', 'a'],
      ['2', 'He said'],
      ['3', 'c'],
      ['4', 'd'],
    ]);
    const invalid = result.diagnostics.filter((d) => d.code === 'json.invalid');
    assert.equal(invalid.length, 1);
    assert.equal(invalid[0]?.column, text.indexOf('hi"') + 1);
    // in the broken item, and the field it broke, as an XML error names them
    assert.deepEqual([invalid[0]?.entry, invalid[0]?.field], [1, 'title']);
  });

  it('reads past a missing comma between members and between items', () => {
    const text = `{"version":"https://jsonfeed.org/version/1.1","title":"T" "items":[{"id":"1"} {"id":"2"}]}`;
    assert.deepEqual(ids(text), [
      ['1', undefined],
      ['2', undefined],
    ]);
    assert.match(parseFeed(text).bozoReason ?? '', /expected "," between the members of an object/);
  });

  it('still stops at a cut, keeping every complete item before it', () => {
    const text = `${FEED_HEAD}"items":[{"id":"1","title":"a"},{"id":"2","title":"b"},{"id":"3","ti`;
    assert.deepEqual(ids(text), [
      ['1', 'a'],
      ['2', 'b'],
      ['3', undefined],
    ]);
  });

  it('reads in time linear with many broken items', () => {
    const broken = '{"id":"x","title":"a "b" c"},'.repeat(20_000);
    const recovered = recoverJson(`{"items":[${broken}{"id":"last"}]}`);
    const items = (recovered.value as { items: { id: string }[] }).items;
    assert.equal(items.length, 20_001);
    assert.equal(items.at(-1)?.id, 'last');
  });
});

describe('JSON Feed version', () => {
  it('warns of a missing or unknown version, and reads the feed as 1.0', () => {
    const feed = (version: string) =>
      parseFeed(`{${version}"title":"T","items":[{"id":"1","content_text":"x"}]}`);
    for (const version of ['"version":"banana",', '', '"version":"https://jsonfeed.org/version/2",']) {
      const result = feed(version);
      assert.equal(result.version, 'json1');
      assert.deepEqual(
        result.diagnostics.map((d) => [d.code, d.severity]),
        [['json.version', 'warning']],
        version,
      );
    }
    assert.deepEqual(feed('"version":"https://jsonfeed.org/version/1.1",').diagnostics, []);
    assert.deepEqual(feed('"version":"https://jsonfeed.org/version/1",').diagnostics, []);
  });

  it('calls a JSON array a JSON document that is no feed, not broken XML', () => {
    const result = parseFeed('[1, 2]');
    assert.deepEqual(
      result.diagnostics.map((d) => d.code),
      ['document.not-a-feed'],
    );
  });
});
