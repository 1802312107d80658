import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sanitizeHtml } from '../../html/index.js';
import { contentForPage } from './content-html.js';

describe('contentForPage', () => {
  it('leaves out the style attributes the sanitizer kept, and nothing else', () => {
    const html = sanitizeHtml(
      '<p style="color: red; text-align: center" title="a > b" dir="rtl">x</p><div STYLE="width: 900px">y</div>',
    );
    assert.match(html, /style=/); // the sanitizer keeps them (the apps get them)
    assert.equal(contentForPage(html), '<p dir="rtl" title="a &gt; b">x</p><div>y</div>');
  });

  it('adds lazy loading to images once', () => {
    assert.equal(
      contentForPage('<img alt="" src="a.png" style="float: left;" /><IMG src="b.png">'),
      '<img loading="lazy" alt="" src="a.png" /><IMG loading="lazy" src="b.png">',
    );
    assert.equal(contentForPage('<img loading="eager" src="a.png">'), '<img loading="eager" src="a.png">');
  });

  it('reads quoted, unquoted and empty attributes as a browser does', () => {
    assert.equal(
      contentForPage(`<td nowrap style='color: red' width=5 style=x>t</td>`),
      '<td nowrap width=5>t</td>',
    );
    assert.equal(contentForPage('<p\nstyle="color: red">x</p>'), '<p>x</p>');
  });

  it('changes nothing in text, comments, end tags or a tag cut off at the end', () => {
    const cases = [
      'a "style=\'x\'" &lt;b style="x"&gt;',
      // the comment ends at the last -->: removing ` style="a"` would have ended it early
      '<!-- x - style="a"-> <img src=x onerror=alert(1)> --><p>after</p>',
      '<!-- a --!> <b>b</b>',
      '<!----> <b>b</b>',
      '<![CDATA[ <b style="x"> ]]>',
      '</p style="x">',
      '<p style="x',
      'text only',
    ];
    for (const html of cases) assert.equal(contentForPage(html), html, html);
    assert.equal(contentForPage('<!-- c --!><b style="x">b</b>'), '<!-- c --!><b>b</b>');
  });
});
