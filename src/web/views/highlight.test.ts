import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsx } from 'hono/jsx';
import { highlight, snippetAround } from './highlight.js';

const render = (text: string, terms: string[]) => String(jsx('p', {}, ...highlight(text, terms)));

describe('highlight', () => {
  it('marks every match, case aside, longest term first, and escapes the text around it', () => {
    assert.equal(
      render('Apples & <b>apple pie</b>', ['apple', 'apple pie']),
      '<p><mark>Apple</mark>s &amp; &lt;b&gt;<mark>apple pie</mark>&lt;/b&gt;</p>',
    );
    assert.equal(render('上海世博五卷', ['世博']), '<p>上海<mark>世博</mark>五卷</p>');
    assert.equal(render('a.b (c)', ['(c)']), '<p>a.b <mark>(c)</mark></p>');
    assert.equal(render('nothing', []), '<p>nothing</p>');
  });

  it('cuts a snippet around the first match', () => {
    const text = `${'x '.repeat(300)}needle ${'y '.repeat(300)}`;
    const snippet = snippetAround(text, ['needle']);
    assert.match(snippet, /^….*needle.*…$/);
    assert.ok(snippet.length <= 282);
  });
});
