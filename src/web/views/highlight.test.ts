import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsx } from 'hono/jsx';
import { highlight, snippetAround } from './highlight.js';

const render = (text: string, terms: string[]) => String(jsx('p', {}, ...highlight(text, terms)));

describe('highlight', () => {
  it('marks every match, case aside, longest term first, and escapes the text around it', () => {
    assert.equal(
      render('Apple & <b>apple pie</b>', ['apple', 'apple pie']),
      '<p><mark>Apple</mark> &amp; &lt;b&gt;<mark>apple pie</mark>&lt;/b&gt;</p>',
    );
    assert.equal(render('上海世博五卷', ['世博']), '<p>上海<mark>世博</mark>五卷</p>');
    assert.equal(render('a.b (c)', ['(c)']), '<p>a.b <mark>(c)</mark></p>');
    assert.equal(render('nothing', []), '<p>nothing</p>');
  });

  it('marks whole words of alphabetic scripts, and CJK terms anywhere', () => {
    assert.equal(
      render('That red hat, Red Hat’s hats', ['Red', 'Hat']),
      '<p>That <mark>red</mark> <mark>hat</mark>, <mark>Red</mark> <mark>Hat</mark>’s hats</p>',
    );
    assert.equal(render('shatter the hat', ['hat']), '<p>shatter the <mark>hat</mark></p>');
    assert.equal(render('Café au lait, cafés', ['café']), '<p><mark>Café</mark> au lait, cafés</p>');
    assert.equal(render('Красная шляпа, шляпами', ['шляпа']), '<p>Красная <mark>шляпа</mark>, шляпами</p>');
    assert.equal(render('2026 and 20261', ['2026']), '<p><mark>2026</mark> and 20261</p>');
    assert.equal(render('x(c) and (c)', ['(c)']), '<p>x<mark>(c)</mark> and <mark>(c)</mark></p>');
    assert.equal(render('上海世博五卷', ['世博']), '<p>上海<mark>世博</mark>五卷</p>');
    assert.equal(render('東京タワーの夜', ['タワー']), '<p>東京<mark>タワー</mark>の夜</p>');
    assert.equal(render('red hats', ['red hat']), '<p>red hats</p>');
    assert.equal(render('a red  hat', ['red hat']), '<p>a <mark>red  hat</mark></p>');
  });

  it('cuts a snippet around the first match', () => {
    const text = `${'x '.repeat(300)}needle ${'y '.repeat(300)}`;
    const snippet = snippetAround(text, ['needle']);
    assert.match(snippet, /^….*needle.*…$/);
    assert.ok(snippet.length <= 282);
  });
});
