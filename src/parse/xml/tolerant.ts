import type { Parser } from 'htmlparser2';
import { loadHtmlparser } from '../lazy-imports.js';
import { setOwn, TreeBuilder, type TreeLimits } from './builder.js';
import { decodeReferences } from './entities.js';
import type { XmlDocument } from './tree.js';

/**
 * Reads a document that is not well-formed with htmlparser2 in XML mode, which recovers from
 * mismatched and unclosed tags, bare ampersands and truncation; every element that can be read is read.
 */
export function parseTolerant(
  text: string,
  entities: Map<string, string> | undefined,
  limits: TreeLimits,
): XmlDocument {
  const builder = new TreeBuilder(limits);
  let inCdata = false;
  const parser: Parser = new (loadHtmlparser().Parser)(
    {
      onopentag(name, attribs) {
        const attrs: Record<string, string> = {};
        for (const key in attribs) setOwn(attrs, key, decodeReferences(attribs[key] ?? '', entities));
        builder.open(name, attrs, parser.startIndex);
      },
      onclosetag() {
        builder.close();
      },
      ontext(data) {
        builder.text(inCdata ? data : decodeReferences(data, entities), inCdata);
      },
      oncdatastart() {
        inCdata = true;
      },
      oncdataend() {
        inCdata = false;
      },
    },
    { xmlMode: true, decodeEntities: false, recognizeSelfClosing: true },
  );
  parser.end(text);
  return builder.doc;
}
