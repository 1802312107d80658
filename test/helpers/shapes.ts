/**
 * Documents of hostile shapes, of a size that grows with n: the linearity test (test/parse-linearity.test.ts)
 * and `npm run bench:shapes` parse each at growing n. Each shape was quadratic once (issue 12).
 */
export interface Shape {
  name: string;
  /** A document of about n units of the shape. */
  make(n: number): string;
}

const RSS_HEAD = '<?xml version="1.0" encoding="utf-8"?>\n<rss version="2.0"><channel><title>Shapes</title>';
const RSS_TAIL = '</channel></rss>';

function items(n: number): string {
  const parts: string[] = [];
  for (let i = 0; i < n; i++)
    parts.push(
      `<item><guid>${i}</guid><title>Item ${i} &amp; more</title>` +
        `<description>&lt;p&gt;Some &amp;amp; text &lt;a href="https://example.com/${i}"&gt;link&lt;/a&gt;&lt;/p&gt;</description></item>\n`,
    );
  return parts.join('');
}

function attributes(n: number, prefix = 'a'): string {
  const parts: string[] = [];
  for (let i = n; i > 0; i--) parts.push(` ${prefix}${i}="v"`);
  return parts.join('');
}

export const SHAPES: Shape[] = [
  {
    name: 'many &amp; then one bare &',
    make: (n) =>
      `${RSS_HEAD}<item><title>${'&amp;'.repeat(n * 8)}</title><description>a & b</description></item>${RSS_TAIL}`,
  },
  {
    name: 'a big feed with a stray < in its last title',
    make: (n) => `${RSS_HEAD}${items(n / 4)}<item><title>a < b</title></item>${RSS_TAIL}`,
  },
  {
    name: 'many stray < before digits and names, and unclosed quotes (tolerant pass)',
    make: (n) =>
      `${RSS_HEAD}<item><title>${'x<5 y<z "q \' '.repeat(n)}</title><guid>g</guid></item>${RSS_TAIL}`,
  },
  {
    name: 'one HTML tag with many attributes (sanitizer)',
    make: (n) => {
      const html = `<p${attributes(n)}>x</p>`.replace(/&/g, '&amp;').replace(/</g, '&lt;');
      return `${RSS_HEAD}<item><title>t</title><description>${html}</description></item>${RSS_TAIL}`;
    },
  },
  {
    name: 'one XML element with many attributes',
    make: (n) => `${RSS_HEAD}<item${attributes(n)}><title>t</title></item>${RSS_TAIL}`,
  },
  {
    name: 'one XML element with many attributes, then a stray < (tolerant pass)',
    make: (n) =>
      `${RSS_HEAD}<item${attributes(n)}><title>t</title></item><item><title>a < b</title></item>${RSS_TAIL}`,
  },
  {
    name: 'deep unclosed nesting',
    make: (n) => `${RSS_HEAD}<item><title>t</title></item>${'<a>'.repeat(n)}${RSS_TAIL}`,
  },
  {
    name: 'deep well-formed nesting',
    make: (n) => `${RSS_HEAD}<item><title>t</title></item>${'<a>'.repeat(n)}${'</a>'.repeat(n)}${RSS_TAIL}`,
  },
  {
    name: 'many undefined entity references',
    make: (n) => `${RSS_HEAD}<item><title>${'&eacute;&nosuch;'.repeat(n)}</title></item>${RSS_TAIL}`,
  },
  {
    name: 'many DTD entity references',
    make: (n) =>
      `<!DOCTYPE rss [<!ENTITY e "${'x'.repeat(100)}">]>${RSS_HEAD}<item><title>${'&e;'.repeat(n)}</title></item>${RSS_TAIL}`,
  },
  {
    name: 'many items',
    make: (n) => `${RSS_HEAD}${items(n / 4)}${RSS_TAIL}`,
  },
  {
    name: 'many JSON Feed items',
    make: (n) =>
      JSON.stringify({
        version: 'https://jsonfeed.org/version/1.1',
        title: 'Shapes',
        items: Array.from({ length: n / 4 }, (_, i) => ({
          id: String(i),
          content_text: `Item ${i} & \u0000`,
        })),
      }),
  },
];
