import type { Category, Common, Enclosure, Feed, Image, Text } from './feed.js';

/** RSS <source url="U">T</source>, or an Atom entry's source feed. */
export type EntrySource = Feed & { href?: string };

export interface Entry extends Common {
  guidislink?: boolean;
  summary?: string;
  summaryDetail?: Text;
  content?: Text[];
  created?: string;
  createdRaw?: string;
  expired?: string;
  expiredRaw?: string;
  enclosures?: Enclosure[];
  comments?: string;
  source?: EntrySource;
  wfwCommentRss?: string;
  wfwComment?: string;
  /** FeedBurner's original link (feedburner:origLink), before its redirect. */
  feedburnerOrigLink?: string;
  thrInReplyTo?: { ref?: string; href?: string; type?: string; source?: string }[];
  slashComments?: number;
  categories?: Category[];
  /** Microformats2 (h-entry) properties that Microsub clients show: URLs unless said otherwise. */
  mf2?: {
    inReplyTo?: string[];
    likeOf?: string[];
    repostOf?: string[];
    bookmarkOf?: string[];
    photo?: string[];
    video?: string[];
    audio?: string[];
    syndication?: string[];
  };
  /** JSON Feed external_url. */
  externalUrl?: string;
  /** An entry's own image (itunes:image, JSON Feed image, media thumbnail of a podcast episode). */
  image?: Image;
}

/** Each `Entry.mf2` key and the microformats2 property (also its jf2 name) it holds. */
export const MF2_PROPERTIES = {
  inReplyTo: 'in-reply-to',
  likeOf: 'like-of',
  repostOf: 'repost-of',
  bookmarkOf: 'bookmark-of',
  photo: 'photo',
  video: 'video',
  audio: 'audio',
  syndication: 'syndication',
} as const satisfies Record<keyof NonNullable<Entry['mf2']>, string>;
