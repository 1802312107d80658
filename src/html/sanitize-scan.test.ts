// scanHtml must split markup where htmlparser2's Tokenizer does (HTML mode, entities not decoded), which
// the sanitizer's expectations were written against. Both run over the same generated tag soup and
// their events are compared, after folding the Tokenizer's per-attribute events into one.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { QuoteType, Tokenizer } from 'htmlparser2';
import { scanHtml } from './sanitize-scan.js';
import { Quote, type ScanSink } from './sanitize-scan-sink.js';

type Event = (string | number | boolean)[];

/** Answers isInForeignContext from a fixed pattern, so both sides get the same answers. */
function foreignAnswers(): () => boolean {
  let calls = 0;
  return () => calls++ % 3 === 2;
}

function scanEvents(input: string): Event[] {
  const events: Event[] = [];
  const isForeign = foreignAnswers();
  const sink: ScanSink = {
    isInForeignContext: () => {
      const answer = isForeign();
      events.push(['foreign?', answer]);
      return answer;
    },
    ontext: (start, end) => events.push(['text', start, end]),
    onopentagname: (start, end) => events.push(['open', start, end]),
    onattribute: (nameStart, nameEnd, valueStart, valueEnd, quote) =>
      events.push(['attr', nameStart, nameEnd, valueStart, valueEnd, quote]),
    onopentagend: (end, selfClosing) => events.push(['openend', end, selfClosing]),
    onclosetag: (start, end, gt) => events.push(['close', start, end, gt]),
    oncomment: (start, end, offset) => events.push(['comment', start, end, offset]),
    ondeclaration: (end) => events.push(['declaration', end]),
    onend: () => events.push(['end']),
  };
  scanHtml(input, sink);
  return events;
}

const QUOTES: Record<number, number> = {
  [QuoteType.NoValue]: Quote.None,
  [QuoteType.Unquoted]: Quote.Unquoted,
  [QuoteType.Single]: Quote.Single,
  [QuoteType.Double]: Quote.Double,
};

function tokenizerEvents(input: string): Event[] {
  const events: Event[] = [];
  const isForeign = foreignAnswers();
  let name: [number, number] = [0, 0];
  let value: [number, number] | undefined;
  const closeAt = (end: number): number => (input.charCodeAt(end) === 0x3e ? end : input.indexOf('>', end));
  const tokenizer = new Tokenizer(
    { decodeEntities: false },
    {
      isInForeignContext: () => {
        const answer = isForeign();
        events.push(['foreign?', answer]);
        return answer;
      },
      // Text from -1 follows an end tag or `/` cut off by the end: scanHtml reports neither.
      ontext: (start, end) => void (start >= 0 && events.push(['text', start, end])),
      ontextentity: () => {},
      onopentagname: (start, end) => events.push(['open', start, end]),
      onattribname: (start, end) => {
        name = [start, end];
        value = undefined;
      },
      onattribdata: (start, end) => {
        value = [start, end];
      },
      onattribentity: () => {},
      onattribend: (quote) => {
        const [start, end] = value ?? [name[1], name[1]];
        events.push(['attr', name[0], name[1], start, end, QUOTES[quote] as number]);
      },
      onopentagend: (end) => events.push(['openend', end, false]),
      onselfclosingtag: (end) => events.push(['openend', end, true]),
      onclosetag: (start, end) =>
        void (closeAt(end) >= 0 && events.push(['close', start, end, closeAt(end)])),
      oncomment: (start, end, offset) => events.push(['comment', start, end, offset]),
      oncdata: (_start, end) => events.push(['declaration', end]),
      ondeclaration: (_start, end) => events.push(['declaration', end]),
      onprocessinginstruction: () => {},
      onend: () => events.push(['end']),
    },
  );
  tokenizer.write(input);
  tokenizer.end();
  return events;
}

const PIECES = [
  '<',
  '<',
  '<',
  '>',
  '>',
  '/',
  '/',
  '!',
  '-',
  '--',
  '?',
  '[',
  'CDATA[',
  ']]>',
  ']',
  '"',
  "'",
  '=',
  '=',
  ' ',
  ' ',
  '\n',
  '\t',
  '\x1c',
  '\x0f',
  'a',
  'b',
  'p',
  'br',
  'x',
  'div',
  'script',
  'SCRIPT',
  'scr',
  'style',
  'title',
  'textarea',
  'tex',
  'xmp',
  'iframe',
  'noembed',
  'noframes',
  'nof',
  'plaintext',
  'doctype',
  'DocType',
  'href',
  'src',
  '&amp;',
  '&',
  'text ',
  'é',
  '</',
  '<!--',
  '-->',
  '--!>',
  '--!',
  '<!',
  '</script',
  '</title>',
  '\x1c/title',
  '\x1c\x0fscript',
  '<title>',
  '<script>',
  '<textarea>',
  '<![CDATA[',
  '<!DOCTYPE ',
  '<!doc',
];

/** Deterministic tag soup: the same strings on every run. */
function* generate(count: number): Generator<string> {
  let seed = 20240611;
  const next = (n: number): number => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return (seed >>> 8) % n;
  };
  for (let i = 0; i < count; i++) {
    let text = '';
    const length = 1 + next(24);
    for (let j = 0; j < length; j++) text += PIECES[next(PIECES.length)];
    yield text;
  }
}

describe('scanHtml', () => {
  it('splits generated markup where htmlparser2 does', () => {
    for (const input of generate(20_000)) {
      assert.deepEqual(scanEvents(input), tokenizerEvents(input), JSON.stringify(input));
    }
  });

  it('splits typical feed HTML where htmlparser2 does', () => {
    const samples = [
      '<p>Hello <a href="https://example.com/?a=1&amp;b=2" title=\'x\'>world</a><br/><img src=x.png alt></p>',
      '<div class=a><script>if (a < b) document.write("</div>")</script><style>p{}</style></div>',
      '<!DOCTYPE html><!-- note --><title>T &amp; <b>t</b></title><textarea></textarea ></p >',
      '<svg xmlns="http://www.w3.org/2000/svg"><title>t</title><circle r="1"/></svg><plaintext><b>',
      'a < b > c <!-> <!--> <!---> <!-- a -- b --!> <? pi ?> </ b> <![CDATA[x]]> <!x> <![if]>',
      '<a href="x',
      '<a',
      '<scr',
      '</a',
      '</a ',
      '<br/',
      '<!--',
      '<!-- x --',
      '<!doctype',
      '<script>x</script',
      '<!-- a --!- b --!x-->',
      '<plaintext>',
      '<![CDATA[ a > b',
      '<![CDAT> <!DOCTYP> <!doc',
      '<title>a\x1c/title>b',
      '<script>a\x1c/script>b\x1c\x0fscript>c',
    ];
    for (const input of samples) assert.deepEqual(scanEvents(input), tokenizerEvents(input), input);
  });
});
