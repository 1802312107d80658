/** A text construct: plain text, HTML (sanitized) or XHTML, with its language and base. */
export interface Text {
  type: 'text/plain' | 'text/html' | 'application/xhtml+xml';
  value: string;
  language?: string;
  base?: string;
}

export interface Person {
  name?: string;
  email?: string;
  uri?: string;
  /** An avatar (microformats h-card photo, JSON Feed avatar). */
  photo?: string;
}

export interface Link {
  /** Absent only when a link element carried no URL at all. */
  href?: string;
  rel?: string;
  type?: string;
  title?: string;
  hreflang?: string;
  length?: string;
}

export interface Category {
  term?: string;
  scheme?: string;
  label?: string;
}

export interface Enclosure {
  href: string;
  type?: string;
  length?: string;
}

export interface Generator {
  name?: string;
  href?: string;
  version?: string;
}

export interface Image {
  href?: string;
  title?: string;
  link?: string;
  width?: number;
  height?: number;
  description?: string;
}

export interface Cloud {
  domain?: string;
  port?: string;
  path?: string;
  registerProcedure?: string;
  protocol?: string;
}

export interface TextInput {
  title?: string;
  description?: string;
  name?: string;
  link?: string;
}

/** iTunes podcast tags (extension keys of the contract). */
export interface Itunes {
  block?: boolean;
  explicit?: boolean;
  duration?: string;
  keywords?: string[];
  image?: string;
  owner?: Person;
  type?: string;
  episode?: string;
  season?: string;
  episodeType?: string;
}

/** Media RSS content and thumbnails. */
export interface MediaContent {
  url?: string;
  type?: string;
  medium?: string;
  fileSize?: string;
  duration?: string;
  width?: number;
  height?: number;
}

export interface Media {
  content?: MediaContent[];
  thumbnails?: { url: string; width?: number; height?: number }[];
  title?: string;
  description?: string;
  credit?: string;
  keywords?: string[];
}

/** Syndication module hints (sy:updatePeriod, sy:updateFrequency, sy:updateBase). */
export interface Syndication {
  updatePeriod?: string;
  updateFrequency?: number;
  updateBase?: string;
}

/** GeoRSS point as latitude/longitude. */
export interface Where {
  type: 'Point';
  coordinates: [number, number];
}

/** Properties a feed and an entry share (an Atom entry's source is Feed-shaped). */
export interface Common {
  title?: string;
  titleDetail?: Text;
  link?: string;
  links?: Link[];
  id?: string;
  updated?: string;
  updatedRaw?: string;
  published?: string;
  publishedRaw?: string;
  language?: string;
  rights?: string;
  rightsDetail?: Text;
  author?: string;
  authorDetail?: Person;
  authors?: Person[];
  publisher?: string;
  publisherDetail?: Person;
  contributors?: Person[];
  categories?: Category[];
  license?: string;
  itunes?: Itunes;
  media?: Media;
  where?: Where;
}

export interface Feed extends Common {
  subtitle?: string;
  subtitleDetail?: Text;
  info?: string;
  infoDetail?: Text;
  generator?: string;
  generatorDetail?: Generator;
  image?: Image;
  icon?: string;
  logo?: string;
  ttl?: string;
  docs?: string;
  cloud?: Cloud;
  textinput?: TextInput;
  hubs?: string[];
  self?: string;
  errorreportsto?: string;
  syndication?: Syndication;
  /** JSON Feed: next_url (and atom:link rel=next in RSS/Atom). */
  next?: string;
}
