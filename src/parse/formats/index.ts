// The feed formats: RSS (0.9x, 1.0 as RDF, 2.0), Atom (0.3, 1.0) and their extensions from an XML tree;
// JSON Feed (and RSS written as JSON); h-feed pages (microformats2).

export { pageRels, parseHfeed } from './hfeed.js';
export { type DocumentResult, readDocument } from './read-document.js';
