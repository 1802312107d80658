import { type Entry, plural } from '../model/index.js';
import type { ParseContext } from './context.js';
import { loadCrypto } from './lazy-imports.js';

/**
 * Completes entries after reading: a summary where only content was given, and an id for every
 * entry (guid/id, else link, else a hash of title, date and content, so the same item always gets
 * the same id). Repeated ids inside one document are reported.
 */
export function finishEntries(ctx: ParseContext, entries: Entry[]): Entry[] {
  const seen = new Map<string, number>();
  const withoutId: number[] = [];
  const finished = entries.map((entry, index) => {
    const out: Entry = { ...entry };
    const first = out.content?.[0];
    if (out.summary === undefined && first) {
      out.summary = first.value;
      out.summaryDetail = first;
    }
    if (out.id === undefined) {
      out.id = out.link ?? contentHash(out);
      withoutId.push(index);
    }
    const earlier = seen.get(out.id);
    if (earlier !== undefined) {
      ctx.diagnostics.add(
        'entry.guid.duplicate',
        `parse: entries ${earlier} and ${index} share the id "${out.id.slice(0, 200)}"`,
        {
          entry: index,
        },
      );
    } else seen.set(out.id, index);
    return out;
  });
  if (withoutId.length > 0) {
    // one diagnostic per document: feeds without guids leave every entry without one
    const which =
      withoutId.length === entries.length
        ? 'no entry has a guid or id'
        : `${withoutId.length} of ${plural(entries.length, 'entry', 'entries')} ${withoutId.length === 1 ? 'has' : 'have'} no guid or id`;
    ctx.diagnostics.add(
      'entry.no-id',
      `parse: ${which}; ids are derived from the link, else from a hash of the content`,
      {
        entry: withoutId[0] as number,
      },
    );
  }
  return finished;
}

function contentHash(entry: Entry): string {
  const hash = loadCrypto().createHash('sha256');
  for (const part of [
    entry.title,
    entry.publishedRaw ?? entry.updatedRaw,
    entry.summary,
    entry.content?.[0]?.value,
  ]) {
    hash.update(part ?? '');
    hash.update('\u0000');
  }
  return `urn:sha256:${hash.digest('hex').slice(0, 40)}`;
}
