import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { htmlToText } from './html-text.js';
import { sanitizeHtml } from './sanitize.js';

describe('htmlToText', () => {
  it('drops tags, decodes entities and puts blocks on their own lines', () => {
    assert.equal(
      htmlToText('<p>Caf&eacute; &amp; <b>bar</b></p><p>Second&nbsp;line</p>'),
      'Café & bar\n\nSecond line',
    );
  });

  it('keeps escaped markup as the text it is', () => {
    assert.equal(htmlToText('1 &lt; 2 &gt; 0 &quot;q&quot;'), '1 < 2 > 0 "q"');
  });

  it('reads what the sanitizer wrote, scripts and attributes included', () => {
    const html = sanitizeHtml(
      '<div title="a > b">Hi<script>alert(1)</script><br>there <img alt="x>y" src="a.png"></div>',
    );
    assert.equal(htmlToText(html), 'Hi\nthere');
  });

  it('collapses white space and leaves plain text alone', () => {
    assert.equal(htmlToText('  just   words\t here '), 'just words here');
  });

  it('ends a kept comment at its -->, not at a > inside it', () => {
    const html = sanitizeHtml('<p>before<!-- a > b -->after</p><!-- <p c -->x<b>y</b><!-->z');
    assert.equal(htmlToText(html), 'beforeafter\nxyz');
  });
});
