import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Parser } from 'htmlparser2';
import { sanitizeHtml } from './sanitize.js';

const base = { baseUrl: 'http://example.com/dir/page.html' };

/** What a browser-like parser finds in the output that could run script. */
function findActiveContent(html: string): string[] {
  const found: string[] = [];
  const parser = new Parser({
    onopentag(name, attrs) {
      if (['script', 'style', 'iframe', 'object', 'embed'].includes(name)) found.push(`<${name}>`);
      for (const [key, value] of Object.entries(attrs)) {
        if (key.startsWith('on') || /^\s*(javascript|vbscript|data):/i.test(value))
          found.push(`${key}=${value}`);
      }
    },
  });
  parser.end(html);
  return found;
}

describe('sanitizeHtml: what it removes', () => {
  it('removes script and style elements with their content', () => {
    assert.equal(
      sanitizeHtml('safe<script>alert(1)</script> <style>b{}</style><b>text</b>'),
      'safe <b>text</b>',
    );
  });

  it('keeps the text of other dropped elements', () => {
    assert.equal(
      sanitizeHtml('<html><body><font color="red">x</font><blink>y</blink></body></html>'),
      '<font color="red">x</font>y',
    );
  });

  it('reads the content of iframe and title as markup, as an SGML parser does', () => {
    assert.equal(
      sanitizeHtml('safe<iframe src="http://example.com/"> <b>description</b></iframe>'),
      'safe <b>description</b>',
    );
  });

  it('removes event handlers and unknown attributes', () => {
    assert.equal(
      sanitizeHtml('<img src="x.png" onerror="alert(1)" onload=alert(2) data-x="1">'),
      '<img src="x.png" />',
    );
  });

  it('empties links with script URLs, however disguised', () => {
    const links = [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'java&#x09;script:alert(1)',
      ' java\nscript:x',
      '&#106;avascript:x',
      'vbscript:x',
      'data:text/html,x',
    ];
    for (const href of links) assert.equal(sanitizeHtml(`<a href="${href}">x</a>`), '<a href="">x</a>', href);
  });

  it('keeps inline images but no other data: sources', () => {
    assert.equal(
      sanitizeHtml('<img src="data:image/png;base64,AAAA">'),
      '<img src="data:image/png;base64,AAAA" />',
    );
    assert.equal(sanitizeHtml('<img src="data:text/html,x">'), '<img src="" />');
  });

  it('drops style properties that are not allowed, and url()', () => {
    const html = '<span style="color: red; position: fixed; background: url(javascript:x)">x</span>';
    assert.equal(sanitizeHtml(html), '<span style="color: red;">x</span>');
    assert.equal(sanitizeHtml('<p style="width: expression(alert(1))">x</p>'), '<p>x</p>');
  });

  it('drops doctypes, processing instructions and CDATA markers', () => {
    assert.equal(sanitizeHtml('<!DOCTYPE html><?xml version="1.0"?><p>x</p>'), '<p>x</p>');
    assert.equal(sanitizeHtml('<![CDATA[x]]>'), '&lt;![CDATA[x]]>');
  });

  it('drops SVG animations, which could retarget links', () => {
    const html = '<svg><a><set attributeName="href" to="javascript:alert(1)"/></a></svg>';
    assert.equal(sanitizeHtml(html), '<svg xmlns="http://www.w3.org/2000/svg"><a></a></svg>');
  });

  it('drops comments that could end a raw-text element in a browser', () => {
    assert.equal(sanitizeHtml('a<!-- <b> -->b'), 'a<!-- <b> -->b');
    assert.equal(sanitizeHtml('<p><!-- </noscript><img src=x onerror=alert(1)> --></p>'), '<p></p>');
  });

  it('never lets text around a dropped element form a tag', () => {
    assert.equal(
      sanitizeHtml('<<script></script>img src=x onerror=alert(1)>'),
      '&lt;img src=x onerror=alert(1)>',
    );
  });
});

describe('sanitizeHtml: relative URLs', () => {
  it('resolves URL attributes against the base', () => {
    assert.equal(sanitizeHtml('<img src="/a.png">', base), '<img src="http://example.com/a.png" />');
    assert.equal(
      sanitizeHtml('<a href="#x">x</a>', base),
      '<a href="http://example.com/dir/page.html#x">x</a>',
    );
    assert.equal(sanitizeHtml('<q cite="q2">x</q>', base), '<q cite="http://example.com/dir/q2">x</q>');
    assert.equal(
      sanitizeHtml('<video poster="p.jpg" src="v.mp4"></video>', base),
      '<video poster="http://example.com/dir/p.jpg" src="http://example.com/dir/v.mp4"></video>',
    );
  });

  it('leaves relative URLs alone without a base', () => {
    assert.equal(sanitizeHtml('<a href="../x">x</a>'), '<a href="../x">x</a>');
  });

  it('decodes references in URLs and writes them back escaped', () => {
    assert.equal(
      sanitizeHtml('<a href="?a=1&amp;b=2&c=3">x</a>', base),
      '<a href="http://example.com/dir/page.html?a=1&amp;b=2&amp;c=3">x</a>',
    );
  });
});

describe('sanitizeHtml: how it writes HTML', () => {
  it('lower-cases names, sorts attributes and quotes values', () => {
    assert.equal(sanitizeHtml('<IMG SRC=a.png ALT=\'x "y"\'>'), '<img alt="x &quot;y&quot;" src="a.png" />');
  });

  it('gives an attribute without value its name as value', () => {
    assert.equal(sanitizeHtml('<hr noshade>'), '<hr noshade="noshade" />');
    assert.equal(sanitizeHtml('<details open>x</details>'), '<details open="open">x</details>');
  });

  it('closes elements left open and drops end tags that close nothing', () => {
    assert.equal(sanitizeHtml('<div><b>bold'), '<div><b>bold</b></div>');
    assert.equal(sanitizeHtml('</b>a</div>b'), 'ab');
    assert.equal(sanitizeHtml('<div><b>x</div>y'), '<div><b>x</b></div>y');
  });

  it('leaves implied end tags implied', () => {
    assert.equal(sanitizeHtml('<p>a<p>b'), '<p>a<p>b</p>');
    assert.equal(sanitizeHtml('<ul><li>a<li>b</ul>'), '<ul><li>a<li>b</li></ul>');
  });

  it('writes void elements in the <br /> form', () => {
    assert.equal(sanitizeHtml('a<br>b<br/>c<br></br>d<hr>'), 'a<br />b<br />c<br />d<hr />');
  });

  it('keeps named and numeric references, escaping unknown ones and bare ampersands', () => {
    assert.equal(
      sanitizeHtml('&copy; &eacute; &#233; &#xE9; &bogus; AT&T & x'),
      '&copy; &eacute; &#233; &#xe9; &amp;bogus; AT&amp;T &amp; x',
    );
  });

  it('maps windows-1252 numeric references to the character meant', () => {
    assert.equal(sanitizeHtml('&#150; &#147;x&#148;'), '&#x2013; &#x201c;x&#x201d;');
  });

  it('escapes < in text but leaves > as it is', () => {
    assert.equal(sanitizeHtml('1 < 2 > 0 <p>'), '1 &lt; 2 > 0 <p></p>');
  });

  it('strips white space around the result and folds CRLF', () => {
    assert.equal(sanitizeHtml('  \r\n<p>a\r\nb</p>\n '), '<p>a\nb</p>');
    assert.equal(sanitizeHtml('  plain text\r\n  '), 'plain text');
  });

  it('returns text without markup as it is', () => {
    const text = 'Nothing to see > here';
    assert.equal(sanitizeHtml(text), text);
  });

  it('keeps SVG with its namespace and camelCase names', () => {
    const html = '<svg viewbox="0 0 1 1"><lineargradient id="g"/><rect fill="url(#g)"/></svg>';
    assert.equal(
      sanitizeHtml(html),
      '<svg viewBox="0 0 1 1" xmlns="http://www.w3.org/2000/svg"><linearGradient id="g" /><rect fill="url(#g)"></svg>',
    );
  });
});

describe('sanitizeHtml: hostile input', () => {
  it('survives a megabyte of nested <div> and bounds the depth', () => {
    const out = sanitizeHtml('<div>'.repeat(200_000));
    assert.ok(out.length < 10_000);
    assert.ok(out.endsWith('</div></div>'));
  });

  it('stays fast on inputs that make naive parsers quadratic', () => {
    const started = Date.now();
    sanitizeHtml('<!--'.repeat(100_000));
    sanitizeHtml('<!-- -- a >'.repeat(50_000));
    sanitizeHtml('<iframe>'.repeat(50_000));
    sanitizeHtml(`<span style="${'url('.repeat(50_000)}">x</span>`);
    sanitizeHtml(`<b>${'</i>'.repeat(100_000)}`);
    sanitizeHtml('<noscript>'.repeat(100_000) + '</b>'.repeat(100_000));
    sanitizeHtml(`<div>${'<svg><g><title>'.repeat(30_000)}${'<p>x'.repeat(30_000)}`);
    sanitizeHtml('<math><mtext><table><mglyph><style>'.repeat(30_000));
    assert.ok(Date.now() - started < 5_000, `took ${Date.now() - started} ms`);
  });

  it('keeps a cut-off end tag at the very end as text, once', () => {
    assert.equal(sanitizeHtml('<b>x</b foo'), '<b>x&lt;/b foo</b>');
    assert.equal(sanitizeHtml('a &amp; b</i '), 'a &amp; b&lt;/i');
    assert.equal(sanitizeHtml('a<br/'), 'a&lt;br/');
  });

  it('rewrites a tag that is not written as it comes out, and copies one that is', () => {
    const copied = '<p class="a"><a href="http://example.com/" title="t">x</a><br /></p>';
    assert.equal(sanitizeHtml(copied, base), copied);
    assert.equal(sanitizeHtml('<p class=\'a\' ID="b">x</p>'), '<p class="a" id="b">x</p>');
    assert.equal(
      sanitizeHtml('<a title="t" href="x">y</a>', base),
      '<a href="http://example.com/dir/x" title="t">y</a>',
    );
    assert.equal(
      sanitizeHtml('<a rel="NoFollow" href="http://x/">y</a>'),
      '<a href="http://x/" rel="nofollow">y</a>',
    );
    assert.equal(sanitizeHtml('<a href="http://x/" href="http://y/">y</a>'), '<a href="http://y/">y</a>');
    assert.equal(
      sanitizeHtml('<span class="a"  id="b" onclick="x()">y</span>'),
      '<span class="a" id="b">y</span>',
    );
    assert.equal(
      sanitizeHtml('<svg xmlns="http://www.w3.org/2000/svg" viewbox="0 0 1 1"></svg>'),
      '<svg viewBox="0 0 1 1" xmlns="http://www.w3.org/2000/svg"></svg>',
    );
  });

  it('turns unclosed tags and broken attributes into safe HTML', () => {
    assert.equal(sanitizeHtml('safe<b class="x'), 'safe&lt;b class="x');
    assert.equal(
      sanitizeHtml('<a href=http://example.com/">x</a>'),
      '<a href="http://example.com/&quot;">x</a>',
    );
    assert.equal(
      sanitizeHtml('<img src="a.png" i$="true" alt="cat<br />dog">'),
      '<img alt="cat&lt;br /&gt;dog" src="a.png" />',
    );
  });

  it('never throws and never lets script through on random markup', () => {
    const pieces = [
      '<',
      '>',
      '/',
      '"',
      "'",
      '=',
      '&',
      ';',
      '#',
      '!--',
      '-->',
      'script',
      'a',
      'img',
      'svg',
      ' ',
      'on',
      'href',
      'javascript:',
      'x',
      '<!',
      '[',
      ']',
    ];
    let seed = 42;
    const next = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed;
    };
    for (let i = 0; i < 2000; i++) {
      let html = '';
      for (let j = next() % 40; j > 0; j--) html += pieces[next() % pieces.length];
      assert.deepEqual(findActiveContent(sanitizeHtml(html)), [], html);
    }
  });
});
