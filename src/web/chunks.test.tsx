import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { raw } from 'hono/html';
import type { Child } from 'hono/jsx';
import { Chunk, renderBytes } from './chunks.js';

function Page(props: { chunked: boolean; items: string[] }) {
  const Part = (p: { children?: Child }) => (props.chunked ? <Chunk>{p.children}</Chunk> : p.children);
  return (
    <html lang="en">
      <body>
        <p title="a → b">Older →</p>
        <Part>
          <nav>
            <Part>nested ✓</Part>
          </nav>
        </Part>
        {props.items.map((item) => (
          <Part>
            <article data-x={item}>{item}</article>
          </Part>
        ))}
      </body>
    </html>
  );
}

describe('pages rendered in chunks', () => {
  it('gives the bytes of the page rendered whole, whatever its characters', () => {
    const items = [
      'plain',
      'café',
      'naïve “quotes”',
      '日本語のテキスト',
      'emoji 🎉 and 𝔘',
      '<b>&amp;</b>',
      '',
    ];
    const whole = Buffer.from(String(<Page chunked={false} items={items} />));
    const chunked = renderBytes(<Page chunked={true} items={items} />);
    assert.equal(Buffer.compare(chunked, whole), 0);
    assert.match(chunked.toString('utf8'), /日本語のテキスト/);
    assert.doesNotMatch(chunked.toString('utf8'), /tidings:chunk/);
  });

  it("shows a marker written by a feed's HTML as itself", () => {
    const forged = '<p>a<!--tidings:chunk:0-->b<!--tidings:8d4e5b3a-0000-4000-8000-000000000000:0-->c</p>';
    const page = renderBytes(
      <main>
        <Chunk>{raw('<nav>sidebar</nav>')}</Chunk>
        {raw(forged)}
        <Chunk>{raw(forged)}</Chunk>
      </main>,
    ).toString('utf8');
    assert.equal(page, `<main><nav>sidebar</nav>${forged}${forged}</main>`);
  });

  it('renders a chunk in place when no page is being rendered in chunks', () => {
    assert.equal(String(<Chunk>{'é'}</Chunk>), 'é');
  });
});
