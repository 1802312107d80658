import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
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

  it('renders a chunk in place when no page is being rendered in chunks', () => {
    assert.equal(String(<Chunk>{'é'}</Chunk>), 'é');
  });
});
