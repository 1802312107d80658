// Feed HTML as the reader's pages show it. The sanitizer (src/parse) keeps a few inline styles, as the
// Universal Feed Parser does, for the apps that show its HTML; the reader leaves them out (issue 22):
// its Content-Security-Policy allows no inline style, so each one was a console error on every page; a
// feed's colours are unreadable in dark mode; and a width of 900 px made phones scroll sideways.
//
// The HTML is read as a browser's tokenizer reads it (start tags with their attributes, end tags,
// comments, bogus comments), so that only a `style` attribute of a real start tag is removed: a comment
// such as `<!-- - style="x"-> <img onerror=...> -->` must stay a comment, whatever its text says.

const LOADING_LAZY = ' loading="lazy"';

/** Sanitized feed HTML with every start tag's `style` attribute left out and `loading="lazy"` on images. */
export function contentForPage(html: string): string {
  let out = '';
  let copied = 0;
  forEachStartTag(html, (tag) => {
    const edited = editTag(html, tag);
    if (edited === undefined) return;
    out += html.slice(copied, tag.start) + edited;
    copied = tag.end;
  });
  return copied === 0 ? html : out + html.slice(copied);
}

/** Calls back with each start tag of the HTML, in order, skipping comments, CDATA and end tags. */
function forEachStartTag(html: string, callback: (tag: StartTag) => void): void {
  let at = html.indexOf('<');
  while (at !== -1) {
    const next = html.charCodeAt(at + 1);
    if (html.startsWith('<!--', at)) at = html.indexOf('<', commentEnd(html, at + 4));
    else if (html.startsWith('<![CDATA[', at)) at = html.indexOf('<', endOf(html, ']]>', at));
    else if (isAsciiLetter(next)) {
      const tag = readStartTag(html, at);
      if (tag === undefined) return; // cut off at the end: left as it is
      callback(tag);
      at = html.indexOf('<', tag.end);
    } else if (next === 0x2f || next === 0x21 || next === 0x3f) {
      // an end tag (`</p>`), or a bogus comment (`<!x>`, `<?x>`, `</ x>`): up to the next `>`
      at = html.indexOf('<', endOf(html, '>', at));
    } else at = html.indexOf('<', at + 1);
  }
}

interface StartTag {
  /** Where its `<` is. */
  start: number;
  name: string;
  nameEnd: number;
  /** Just after the tag's `>`. */
  end: number;
  /** Each attribute from the space before it to its end, with its name in lower case and its value. */
  attributes: { start: number; end: number; name: string; value: string }[];
}

/** The `src` of every image of sanitized feed HTML, character references decoded. */
export function imageSources(html: string): string[] {
  const sources: string[] = [];
  forEachStartTag(html, (tag) => {
    const src = tag.name === 'img' ? tag.attributes.find((a) => a.name === 'src') : undefined;
    if (src) sources.push(decodeReferences(src.value));
  });
  return sources;
}

const REFERENCES: Record<string, string> = { amp: '&', quot: '"', apos: "'", lt: '<', gt: '>' };

// What the sanitizer writes in an attribute value: &amp; &quot; &lt; &gt; and numeric references.
function decodeReferences(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#\d+|amp|quot|apos|lt|gt);/gi, (all, name: string) => {
    if (name[0] !== '#') return REFERENCES[name.toLowerCase()] ?? all;
    const code =
      name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : all;
  });
}

/** The tag with its style attributes left out and lazy loading added to an image; undefined when unchanged. */
function editTag(html: string, tag: StartTag): string | undefined {
  const styles = tag.attributes.filter((a) => a.name === 'style');
  const lazy = tag.name === 'img' && !tag.attributes.some((a) => a.name === 'loading');
  if (styles.length === 0 && !lazy) return undefined;
  let out = html.slice(tag.start, tag.nameEnd) + (lazy ? LOADING_LAZY : '');
  let copied = tag.nameEnd;
  for (const style of styles) {
    out += html.slice(copied, style.start);
    copied = style.end;
  }
  return out + html.slice(copied, tag.end);
}

const isAsciiLetter = (code: number) => (code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a;
const isSpace = (code: number) =>
  code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d;

/** Just after the first `marker` from `from`, or the end of the text. */
function endOf(html: string, marker: string, from: number): number {
  const found = html.indexOf(marker, from);
  return found === -1 ? html.length : found + marker.length;
}

/** Just after a comment whose text starts at `from` (after `<!--`): `-->` or `--!>`, and `<!-->`, `<!--->`. */
function commentEnd(html: string, from: number): number {
  if (html.charCodeAt(from) === 0x3e) return from + 1;
  if (html.startsWith('->', from)) return from + 2;
  const dashes = html.indexOf('--', from);
  for (let i = dashes; i !== -1; i = html.indexOf('--', i + 1)) {
    if (html.charCodeAt(i + 2) === 0x3e) return i + 3;
    if (html.startsWith('!>', i + 2)) return i + 4;
  }
  return html.length;
}

/** A start tag at `at` read as the HTML tokenizer reads it; undefined when the text ends inside it. */
function readStartTag(html: string, at: number): StartTag | undefined {
  let i = at + 1;
  while (i < html.length && !isSpace(html.charCodeAt(i)) && html[i] !== '/' && html[i] !== '>') i++;
  const name = html.slice(at + 1, i).toLowerCase();
  const nameEnd = i;
  const attributes: StartTag['attributes'] = [];
  for (;;) {
    const start = i;
    while (i < html.length && (isSpace(html.charCodeAt(i)) || html[i] === '/')) i++;
    if (i >= html.length) return undefined;
    if (html[i] === '>') return { start: at, name, nameEnd, end: i + 1, attributes };
    const nameStart = i;
    i++; // a first `=` belongs to the name
    while (i < html.length && !isSpace(html.charCodeAt(i)) && !'/>='.includes(html.charAt(i))) i++;
    const attribute = html.slice(nameStart, i).toLowerCase();
    let value = '';
    let j = i;
    while (j < html.length && isSpace(html.charCodeAt(j))) j++;
    if (html[j] === '=') {
      j++;
      while (j < html.length && isSpace(html.charCodeAt(j))) j++;
      const quote = html[j];
      if (quote === '"' || quote === "'") {
        const close = html.indexOf(quote, j + 1);
        if (close === -1) return undefined;
        value = html.slice(j + 1, close);
        i = close + 1;
      } else {
        i = j;
        while (i < html.length && !isSpace(html.charCodeAt(i)) && html[i] !== '>') i++;
        value = html.slice(j, i);
      }
    }
    attributes.push({ start, end: i, name: attribute, value });
  }
}
