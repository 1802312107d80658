/**
 * Namespace URIs we know, by the prefix our handler tables use. Documents pick their own prefixes;
 * handlers match on these canonical ones. Lower-case keys: some feeds vary the case of the URI.
 */
const KNOWN: Record<string, string> = {
  // RSS itself is read in no namespace, whatever URI a feed declares for it
  'http://backend.userland.com/rss': '',
  'http://backend.userland.com/rss2': '',
  'http://blogs.law.harvard.edu/tech/rss': '',
  'http://purl.org/rss/1.0/': '',
  'http://my.netscape.com/rdf/simple/0.9/': '',
  'http://example.com/newformat#': '',
  'http://example.com/necho': '',
  'http://purl.org/echo/': '',
  'uri/of/echo/namespace#': '',
  'http://www.w3.org/2005/atom': 'atom',
  'http://purl.org/atom/ns#': 'atom',
  'http://purl.org/dc/elements/1.1/': 'dc',
  'http://purl.org/dc/terms/': 'dcterms',
  'http://purl.org/rss/1.0/modules/content/': 'content',
  'http://purl.org/rss/1.0/modules/syndication/': 'sy',
  'http://purl.org/rss/1.0/modules/slash/': 'slash',
  'http://wellformedweb.org/commentapi/': 'wfw',
  'http://www.itunes.com/dtds/podcast-1.0.dtd': 'itunes',
  'http://example.com/dtds/podcast-1.0.dtd': 'itunes',
  'http://search.yahoo.com/mrss/': 'media',
  'http://search.yahoo.com/mrss': 'media',
  'http://www.w3.org/1999/02/22-rdf-syntax-ns#': 'rdf',
  'http://www.w3.org/2000/01/rdf-schema#': 'rdfs',
  'http://www.w3.org/1999/xhtml': 'xhtml',
  'http://www.w3.org/xml/1998/namespace': 'xml',
  'http://www.georss.org/georss': 'georss',
  'http://www.opengis.net/gml': 'gml',
  'http://www.w3.org/2003/01/geo/wgs84_pos#': 'geo',
  'http://purl.org/syndication/thread/1.0': 'thr',
  'http://purl.org/rss/1.0/modules/image/': 'image',
  'http://webns.net/mvcb/': 'admin',
  'http://purl.org/rss/1.0/modules/textinput/': 'ti',
  'http://madskills.com/public/xml/rss/module/trackback/': 'trackback',
  'http://podlove.org/simple-chapters': 'psc',
  'http://rssnamespace.org/feedburner/ext/1.0': 'feedburner',
  'http://www.google.com/schemas/play-podcasts/1.0': 'googleplay',
  'https://podcastindex.org/namespace/1.0': 'podcast',
  'http://purl.org/rss/1.0/modules/event/': 'ev',
  'http://backend.userland.com/creativecommonsrssmodule': 'cc',
  'http://web.resource.org/cc/': 'cc',
  'http://creativecommons.org/ns#': 'cc',
  'http://purl.org/rss/1.0/modules/annotate/': 'annotate',
  'http://purl.org/rss/1.0/modules/taxonomy/': 'taxo',
  'http://purl.org/rss/1.0/modules/aggregation/': 'ag',
  'http://purl.org/rss/1.0/modules/company/': 'co',
  'http://purl.org/rss/1.0/modules/email/': 'email',
  'http://purl.org/rss/1.0/modules/link/': 'l',
  'http://purl.org/rss/1.0/modules/richequiv/': 'reqv',
  'http://purl.org/rss/1.0/modules/reference/': 'ref',
  'http://purl.org/rss/1.0/modules/search/': 'search',
  'http://purl.org/rss/1.0/modules/servicestatus/': 'ss',
  'http://hacks.benhammersley.com/rss/streaming/': 'str',
  'http://purl.org/rss/1.0/modules/subscription/': 'sub',
  'http://purl.org/net/rss1.1#': '',
  'http://www.w3.org/1999/xsl/transform': 'xsl',
  'http://schemas.xmlsoap.org/soap/envelope/': 'soap',
  'http://www.microsoft.com/schemas/rss/core/2005': 'cf',
  'http://purl.org/net/rss1.1/payload#': 'p',
  'http://www.bloglines.com/about/specs/fac-1.0': 'access',
  'http://postneo.com/icbm/': 'icbm',
  'http://geourl.org/rss/module/': 'geourl',
  'http://www.w3.org/2003/01/geo/wgs84_pos': 'geo',
};

/** Namespace URI of Atom 1.0 and of Atom 0.3 (and earlier drafts). */
export const ATOM10_NS = 'http://www.w3.org/2005/Atom';
export const ATOM03_NS = 'http://purl.org/atom/ns#';
export const RDF_NS = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
export const RSS10_NS = 'http://purl.org/rss/1.0/';
export const RSS090_NS = 'http://my.netscape.com/rdf/simple/0.9/';
export const XHTML_NS = 'http://www.w3.org/1999/xhtml';

// A Map, not the object: a URI such as `constructor` found Object.prototype's members in it.
const PREFIXES: ReadonlyMap<string, string> = new Map(Object.entries(KNOWN));

/** The canonical prefix for a namespace URI ('' for none and for RSS), or undefined when unknown. */
export function canonicalPrefix(uri: string): string | undefined {
  if (uri === '') return '';
  // No cache: a namespace URI is often a slice of its document, and a cached key kept whole documents
  // alive for the life of the process. Most URIs are written as known, in lower case.
  const known = PREFIXES.get(uri);
  if (known !== undefined) return known;
  const lower = uri.toLowerCase();
  return PREFIXES.get(lower) ?? PREFIXES.get(lower.endsWith('/') ? lower.slice(0, -1) : `${lower}/`);
}

/** True for the namespaces of Atom (any version). */
export function isAtomNamespace(uri: string): boolean {
  return canonicalPrefix(uri) === 'atom';
}
