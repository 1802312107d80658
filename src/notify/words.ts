import { plural } from '../model/index.js';
import type { EntryMatchedEvent, EventDiagnostic, FeedEvent } from '../store/index.js';

/** An event in words, for email and ntfy: a subject line, the text, ntfy's tags (emoji names). */
export interface EventWords {
  title: string;
  text: string;
  tags: string[];
  /** Where to read more (ntfy's Click). */
  link?: string;
}

/** The event a JSON payload holds, in words: what a webhook receives as data, a person reads as this. */
export function eventWords(payload: string): EventWords {
  const event = JSON.parse(payload) as Record<string, unknown>;
  switch (event['type']) {
    case 'feed.failing':
    case 'feed.recovered':
    case 'feed.silent':
    case 'feed.gone':
    case 'feed.moved':
      return feedEventWords(event as unknown as FeedEvent);
    case 'entry.matched':
      return matchedWords(event as unknown as EntryMatchedEvent);
    case 'digest':
      return digestWords(event as unknown as Digest);
    case 'test':
      return { title: 'tidings: test message', text: `${String(event['message'] ?? '')}\n`, tags: ['bell'] };
    default:
      return {
        title: `tidings: ${String(event['type'] ?? 'event')}`,
        text: `${JSON.stringify(event, null, 2)}\n`,
        tags: ['bell'],
      };
  }
}

function feedEventWords(event: FeedEvent): EventWords {
  const name = event.feed.title ?? event.feed.url;
  const lines: string[] = [];
  let title: string;
  let tags: string[];
  switch (event.type) {
    case 'feed.failing':
      title = `Feed failing: ${name}`;
      tags = ['warning'];
      lines.push(
        `${name} has failed ${plural(event.failures, 'poll')} in a row, since ${when(event.since)}.`,
        '',
        `${event.status}: ${event.message}`,
        ...diagnosticLines(event.diagnostic),
      );
      break;
    case 'feed.recovered':
      title = `Feed recovered: ${name}`;
      tags = ['white_check_mark'];
      lines.push(
        `${name} works again, after ${plural(event.failures, 'failed poll')} since ${when(event.since)}.`,
        '',
        event.message,
      );
      break;
    case 'feed.silent':
      title = `Feed silent: ${name}`;
      tags = ['zzz'];
      lines.push(`${name} still answers, but ${event.message}.`);
      break;
    case 'feed.gone':
      title = `Feed gone: ${name}`;
      tags = ['x'];
      lines.push(`${name} is gone: the server answered 410 Gone. It is no longer polled; its entries stay.`);
      break;
    case 'feed.moved':
      title = `Feed moved: ${name}`;
      tags = ['truck'];
      lines.push(`${name} moved for good (a permanent redirect): tidings polls the new address from now on.`);
      lines.push('', `old: ${event.feed.url}`, `new: ${event.newUrl ?? ''}`);
      break;
  }
  if (event.type !== 'feed.moved') lines.push('', `Feed: ${event.feed.url}`);
  if (event.link !== undefined) lines.push(`Details: ${event.link}`);
  return {
    title,
    text: `${lines.join('\n')}\n`,
    tags,
    ...(event.link !== undefined ? { link: event.link } : {}),
  };
}

/** A rule's match in words: the entry's title, its feed, and the rule that matched it. */
function matchedWords(event: EntryMatchedEvent): EventWords {
  const title = event.entry.title ?? event.entry.url ?? `entry ${event.entry.id}`;
  const feed = event.entry.feed.title ?? event.entry.feed.url;
  const lines = [title, '', `from ${feed}`, `matched your rule ${JSON.stringify(event.rule.query)}`];
  if (event.entry.url !== null) lines.push('', event.entry.url);
  return {
    title: `tidings: ${title}`,
    text: `${lines.join('\n')}\n`,
    tags: ['mag'],
    ...(event.entry.url !== null ? { link: event.entry.url } : {}),
  };
}

/** The daily digest's JSON (store/notify queueDigests). */
interface Digest {
  at: string;
  feeds: {
    url: string;
    title: string | null;
    status: string;
    message: string | null;
    since: string | null;
    failures: number;
    link?: string;
  }[];
}

/** The digest in words: each broken feed, since when, and why. */
function digestWords(digest: Digest): EventWords {
  const count = digest.feeds.length;
  const lines = [
    `${count === 1 ? 'One feed you follow is' : `${plural(count, 'feed')} you follow are`} still broken:`,
  ];
  for (const feed of digest.feeds) {
    const since = feed.since === null ? '' : ` since ${when(feed.since)}`;
    const polls = feed.failures > 0 ? `, ${plural(feed.failures, 'failed poll')}` : '';
    lines.push('', `- ${feed.title ?? feed.url}: ${feed.status}${since}${polls}`);
    if (feed.message !== null) lines.push(`  ${feed.message}`);
    lines.push(`  ${feed.link ?? feed.url}`);
  }
  return {
    title: `tidings: ${plural(count, 'feed')} still broken`,
    text: `${lines.join('\n')}\n`,
    tags: ['warning'],
  };
}

/**
 * Where a parse or encoding error is: its line and column, and the document's line with a caret under
 * the column, as the health page shows it. Tabs before the column stay tabs in the caret's line, so that
 * the caret lines up however wide the reader's tabs are.
 */
export function diagnosticLines(diagnostic: EventDiagnostic | undefined): string[] {
  if (diagnostic === undefined) return [];
  const where = [
    diagnostic.line !== undefined ? `line ${diagnostic.line}` : '',
    diagnostic.column !== undefined ? `column ${diagnostic.column}` : '',
  ].filter(Boolean);
  const lines = ['', `${where.length > 0 ? `${where.join(', ')} ` : ''}(${diagnostic.code}):`];
  if (diagnostic.excerpt === undefined) return lines;
  lines.push(`  ${diagnostic.excerpt}`);
  const column = diagnostic.excerptColumn ?? diagnostic.column;
  if (column !== undefined && column >= 1) {
    const before = diagnostic.excerpt.slice(0, column - 1).replace(/[^\t]/g, ' ');
    lines.push(`  ${before}^`);
  }
  return lines;
}

/** A time as people read it in a message: 2026-03-01 12:00 UTC. */
function when(iso: string): string {
  return `${iso.slice(0, 16).replace('T', ' ')} UTC`;
}
