import type { Category, Common, Enclosure, Feed, Text } from './feed.js';

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
  thrInReplyTo?: { ref?: string; href?: string; type?: string; source?: string }[];
  slashComments?: number;
  categories?: Category[];
  /** JSON Feed and microformats: external_url, image, banner_image. */
  externalUrl?: string;
  image?: string;
}
