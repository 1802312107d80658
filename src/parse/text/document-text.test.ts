import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseFeed } from '../index.js';
import { DocumentText } from './document-text.js';

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

// Two-, three- and four-byte sequences (the last a surrogate pair), CR LF, and ASCII between them
const MIXED = 'caf\u00e9 \u65e5\u672c\r\n\ud83d\ude00 <a>&amp;</a> \u00fcber\r'.repeat(50);

function collect(source: DocumentText, from = 0): string[] {
  const pieces: string[] = [];
  source.pieces(from, (piece) => pieces.push(piece));
  return pieces;
}

describe('DocumentText', () => {
  it('hands over UTF-8 in pieces that join to the whole text, whatever the piece size', () => {
    for (const size of [1, 2, 3, 5, 7, 64, 1000, 1 << 20]) {
      const pieces = collect(DocumentText.fromUtf8(utf8(MIXED), size));
      assert.equal(pieces.join(''), MIXED, `pieces of ${size} bytes`);
      if (size < 10) assert.ok(pieces.length > 100, `${size}-byte pieces are many`);
    }
  });

  it('starts the pieces at a code unit, across piece boundaries', () => {
    for (const from of [0, 1, 3, 4, 17, 500, MIXED.length - 1, MIXED.length]) {
      for (const size of [4, 5, 64]) {
        const pieces = collect(DocumentText.fromUtf8(utf8(MIXED), size), from);
        assert.equal(pieces.join(''), MIXED.slice(from), `from ${from}, pieces of ${size} bytes`);
        assert.ok(
          pieces.every((p) => p.length > 0),
          'no empty piece',
        );
      }
    }
    assert.deepEqual(collect(DocumentText.of('abc'), 1), ['bc']);
  });

  it('reads the head without decoding the rest, and the whole text once', () => {
    const source = DocumentText.fromUtf8(utf8(MIXED));
    for (const chars of [1, 10, 100, 333]) {
      const head = source.head(chars);
      assert.ok(head.length >= chars, `head(${chars}) has ${head.length} code units`);
      assert.ok(MIXED.startsWith(head), `head(${chars}) is the text's start`);
      assert.ok(head.length < MIXED.length, `head(${chars}) is not the whole text`);
    }
    assert.equal(source.head(MIXED.length * 2), MIXED);
    assert.equal(source.full(), MIXED);
    assert.equal(source.full(), source.full());
    assert.equal(DocumentText.of('short').head(100), 'short');
    assert.equal(DocumentText.fromUtf8(utf8('')).full(), '');
  });

  it('tells ASCII from other text without decoding', () => {
    assert.equal(DocumentText.fromUtf8(utf8('<a>plain</a>')).hasNonAscii(), false);
    assert.equal(DocumentText.fromUtf8(utf8('<a>caf\u00e9</a>')).hasNonAscii(), true);
    assert.equal(DocumentText.of('<a>plain</a>').hasNonAscii(), false);
    assert.equal(DocumentText.of('<a>\u00e9</a>').hasNonAscii(), true);
  });

  it('finds the first character that is not white space, however far it is', () => {
    for (const spaces of [0, 3, 8191, 8192, 30_000]) {
      const text = `${' \n'.repeat(spaces)}<a/>`;
      assert.equal(DocumentText.fromUtf8(utf8(text)).firstNonSpace(), spaces * 2, `${spaces} spaces`);
      assert.equal(DocumentText.of(text).firstNonSpace(), spaces * 2);
    }
    assert.equal(DocumentText.fromUtf8(utf8(' \n'.repeat(10_000))).firstNonSpace(), -1);
    assert.equal(DocumentText.of('').firstNonSpace(), -1);
  });

  it('lets a feed start after pages of white space, as parseFeed reads it', () => {
    const feed =
      '<?xml version="1.0"?><rss version="2.0"><channel><item><title>x</title></item></channel></rss>';
    const result = parseFeed(utf8(`${'\n'.repeat(20_000)}${feed}`));
    assert.equal(result.entries[0]?.title, 'x');
    assert.deepEqual(
      result.diagnostics.map((d) => d.code),
      ['xml.leading-whitespace', 'entry.no-id'],
    );
  });
});
