import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatReport } from '../cli/parse-report.js';
import { parseFeed } from './index.js';

const OPML = `<?xml version="1.0"?>
<opml version="2.0"><head><title>subscriptions</title></head><body>
  <outline text="A" xmlUrl="https://a.example/feed.xml"/>
  <outline text="Folder"><outline text="B" xmlUrl="https://b.example/feed.xml"/></outline>
</body></opml>`;

describe('an OPML file given to the parser', () => {
  it('is a well-formed subscription list, not a broken feed, and says how to follow its feeds', () => {
    const result = parseFeed(OPML);
    assert.equal(result.version, '');
    assert.equal(result.bozo, false);
    assert.equal(result.entries.length, 0);
    const [first, ...rest] = result.diagnostics;
    assert.deepEqual(rest, []);
    assert.equal(first?.code, 'document.opml');
    assert.equal(first?.severity, 'error');
    assert.match(
      first?.message ?? '',
      /an OPML subscription list \(2 feeds\), not a feed; `tidings import FILE`/,
    );
    const report = formatReport('subs.opml', result);
    assert.match(report, /format: {3}OPML, a subscription list \(not a feed\)\n/);
    assert.doesNotMatch(report, /not well-formed/);
  });

  it('counts one feed as one, and still calls a broken OPML file not well-formed', () => {
    const one = parseFeed('<opml version="1.0"><body><outline xmlURL="https://a.example/f"/></body></opml>');
    assert.match(one.diagnostics[0]?.message ?? '', /\(1 feed\)/);
    const broken = parseFeed(
      '<opml version="2.0"><body><outline xmlUrl="https://a.example/f"></body></opml>',
    );
    assert.equal(broken.bozo, true);
    assert.ok(broken.diagnostics.some((d) => d.code === 'document.opml'));
    assert.match(formatReport('broken.opml', broken), /format: {3}OPML, .*\(not well-formed\)/);
  });
});
