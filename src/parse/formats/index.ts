// The feed formats: RSS (0.9x, 1.0 as RDF, 2.0), Atom (0.3, 1.0) and their extensions from an XML tree;
// JSON Feed (and RSS written as JSON); h-feed pages (microformats2). readDocument tells which one a
// document is and reads it; poll/discover.ts reads pages for their h-feed and rel links.

export { pageRels, parseHfeed } from './hfeed.js';
export { type DocumentResult, readDocument } from './read-document.js';
