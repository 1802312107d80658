import type { SaxesParser } from 'saxes';

// One element with 64,000 attributes made saxes spend 170-280 ns per character (issue 12): it puts every
// attribute into one object, which V8 keeps as a slow dictionary, and our tree builder walked that
// object twice more. An element keeps its first MAX_ATTRIBUTES attributes here; the rest are read past
// and counted, never stored. The override is of saxes 6.0.0's pushAttribPlain (package.json pins it);
// attributeCappingParser checks it is there and otherwise leaves saxes's class as it is.

/** Attributes one element keeps; the rest are dropped with a diagnostic. */
export const MAX_ATTRIBUTES = 1024;

interface SaxesInternals {
  attribList: unknown[];
  droppedAttributes: number;
}

type ParserClass = typeof SaxesParser;
const subclasses = new WeakMap<ParserClass, ParserClass>();

/** A SaxesParser subclass that keeps the first MAX_ATTRIBUTES attributes of each element. */
export function attributeCappingParser(Base: ParserClass): ParserClass {
  let Sub = subclasses.get(Base);
  if (Sub) return Sub;
  const push = (Base.prototype as unknown as Record<string, unknown>)['pushAttribPlain'];
  const probe = new Base() as unknown as Partial<SaxesInternals>;
  Sub = Base;
  if (typeof push === 'function' && Array.isArray(probe.attribList)) {
    Sub = class AttributeCappingParser extends Base {
      droppedAttributes = 0;
    };
    Object.defineProperty(Sub.prototype, 'pushAttribPlain', {
      value(this: SaxesInternals, name: string, value: string): void {
        if (this.attribList.length >= MAX_ATTRIBUTES) this.droppedAttributes++;
        else push.call(this, name, value);
      },
      writable: true,
    });
  }
  subclasses.set(Base, Sub);
  return Sub;
}

/** How many attributes the parser has dropped so far (0 for saxes's own class). */
export function droppedAttributes(parser: SaxesParser): number {
  return (parser as unknown as Partial<SaxesInternals>).droppedAttributes ?? 0;
}
