// XML documents as a tree: read strictly (saxes) and, when that fails, tolerantly (htmlparser2), with
// namespaces resolved, entities bounded, and what broke well-formedness reported where it happened.

export { ATOM03_NS, ATOM10_NS, canonicalPrefix, RSS090_NS } from './namespaces.js';
export { type ReadLimits, readXmlTree, type TreeResult } from './read-tree.js';
export { type MarkupBases, serializeChildren } from './serialize.js';
export { parseStrict } from './strict.js';
export { parseTolerant } from './tolerant.js';
export { hasChildElements, isElement, textOf, type XmlElement, type XmlNode } from './tree.js';
