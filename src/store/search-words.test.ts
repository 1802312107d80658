import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pg from 'pg';
import { searchWords, tsqueryLiteral, tsvectorLiteral } from './search-words.js';

describe('search words', () => {
  it('finds words as FTS5 unicode61 does: letters and digits, lower case, accents dropped', () => {
    assert.deepEqual(searchWords("Café crème: don't e-mail info@x.example, v1.5!"), [
      'cafe',
      'creme',
      'don',
      't',
      'e',
      'mail',
      'info',
      'x',
      'example',
      'v1',
      '5',
    ]);
    // decomposed accents, Greek, Cyrillic and a run of Han characters (one word, as FTS5 has it)
    assert.deepEqual(searchWords('Cafe\u0301 Ελληνικά Москва 東京タワー'), [
      'cafe',
      'ελληνικα',
      'москва',
      '東京タワー',
    ]);
    assert.deepEqual(searchWords(' -- ... '), []);
  });

  it('scans words as the expression of a word says, whatever the mix of scripts and marks', () => {
    // the definition the hand scan keeps to: runs of letters, digits, marks and private-use characters
    const reference = (text: string) =>
      [...text.toLowerCase().matchAll(/[\p{L}\p{N}\p{M}\p{Co}]+/gu)]
        .map((match) =>
          match[0]
            .normalize('NFD')
            .replace(/\p{M}+/gu, '')
            .normalize('NFC'),
        )
        .filter((word) => word !== '');
    const pieces = [
      'a',
      'Z',
      '7',
      ' ',
      '-',
      "'",
      '\u0301',
      'é',
      'İ',
      'ß',
      'Ω',
      'я',
      '東',
      '\u{1d400}',
      '\u{1f600}',
      '\ue000',
      '\ud800',
      '\u00a0',
      '\u2019',
      '٣',
      'ﬁ',
      '\n',
    ];
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed;
    };
    for (let round = 0; round < 500; round++) {
      let text = '';
      for (let i = next() % 40; i > 0; i--) text += pieces[next() % pieces.length];
      assert.deepEqual(searchWords(text), reference(text), JSON.stringify(text));
    }
  });

  it('writes each word once with its positions, counting every word', () => {
    assert.equal(tsvectorLiteral('the cat and the hat'), "'the':1,4 'cat':2 'and':3 'hat':5");
    assert.equal(tsvectorLiteral(''), '');
  });

  it('keeps within PostgreSQL limits: 256 positions a word, positions up to 16383, words under 2 KB', () => {
    const many = tsvectorLiteral('word '.repeat(300));
    assert.equal(many.split(',').length, 256);
    const long = tsvectorLiteral(`${'x'.repeat(3000)} after`);
    assert.equal(long, "'after':2");
    const far = tsvectorLiteral(`${'a '.repeat(20000)}end`);
    assert.match(far, /'end':16383$/);
  });

  it('makes a phrase of next-to-each-other words, or nothing when the term has no word', () => {
    assert.equal(tsqueryLiteral('Crème brûlée'), "'creme' <-> 'brulee'");
    assert.equal(tsqueryLiteral('e-mail'), "'e' <-> 'mail'");
    assert.equal(tsqueryLiteral('--'), undefined);
  });
});

const pgUrl = process.env['TIDINGS_TEST_PG_URL'];

describe('search words in PostgreSQL', { skip: pgUrl ? false : 'set TIDINGS_TEST_PG_URL' }, () => {
  it('reads every literal as the vector and query meant, and matches phrases by position', async () => {
    const client = new pg.Client({ connectionString: pgUrl });
    await client.connect();
    try {
      const text = `Crème brûlée, l'été ${'word '.repeat(300)} ${'y'.repeat(3000)} Ελληνικά 東京 end`;
      const vector = tsvectorLiteral(text);
      const { rows } = await client.query<{ words: number; found: boolean; phrase: boolean; apart: boolean }>(
        `SELECT length($1::tsvector) AS words,
                $1::tsvector @@ $2::tsquery AS found,
                $1::tsvector @@ $3::tsquery AS phrase,
                $1::tsvector @@ $4::tsquery AS apart`,
        [vector, tsqueryLiteral('ελληνικά'), tsqueryLiteral('creme brulee'), tsqueryLiteral('brulee creme')],
      );
      assert.deepEqual(rows[0], { words: 8, found: true, phrase: true, apart: false });
    } finally {
      await client.end();
    }
  });
});
