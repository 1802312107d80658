// Elements of namespaces that RSS and Atom feeds borrow: Dublin Core, iTunes, Media RSS, and the RSS 1.0
// modules (content, syndication, slash, wfw ...). Each gives handler table entries for read-xml.ts.

export { dublinCore } from './dublin-core.js';
export { itunes } from './itunes.js';
export { mediaRss } from './media.js';
export { modules } from './modules.js';
