import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detectCharset } from './charset-detect.js';
import { decodeWindows1252 } from './windows-1252.js';

/** Encodes text in a single-byte code page by inverting a decoder's table for it. */
function encodeSingleByte(text: string, encoding: string): Uint8Array {
  // Node 20's own windows-1252 decoder reads 0x80-0x9F as C1 controls (../shared/STACK.md)
  const decode =
    encoding === 'windows-1252'
      ? decodeWindows1252
      : (bytes: Uint8Array) => new TextDecoder(encoding).decode(bytes);
  const table = new Map<string, number>();
  for (let byte = 0; byte < 256; byte++) table.set(decode(new Uint8Array([byte])), byte);
  return Uint8Array.from(text, (char) => {
    const byte = table.get(char);
    if (byte === undefined) throw new Error(`${char} is not in ${encoding}`);
    return byte;
  });
}

const RUSSIAN =
  '<rss><channel><item><title>Как пережить новогоднюю ночь</title><description>Наверное, единственное, ' +
  'во что сегодня можно верить безоговорочно, так это в то, что Новый год обязательно наступит.</description></item></channel></rss>';
const FRENCH =
  '<rss><channel><item><title>L’été à Montréal</title><description>Les élèves ont présenté « leurs » ' +
  'travaux — très réussis — à la fête de l’école, où l’on a dégusté crème brûlée et café.</description></item></channel></rss>';

describe('detectCharset', () => {
  it('tells Cyrillic KOI8-R from the Latin fallback', () => {
    assert.equal(detectCharset(encodeSingleByte(RUSSIAN, 'koi8-r')), 'KOI8-R');
  });

  it('leaves Latin text to the windows-1252 fallback', () => {
    assert.equal(detectCharset(encodeSingleByte(FRENCH, 'windows-1252')), undefined);
  });

  it('guesses nothing from ASCII or from nothing', () => {
    assert.equal(detectCharset(new TextEncoder().encode('<rss><channel/></rss>')), undefined);
    assert.equal(detectCharset(new Uint8Array()), undefined);
  });
});
