import type { Heartbeat, HeartbeatBar } from '../../model/index.js';
import { count, formatTimestamp } from './format.js';
import { healthWords } from './status.js';

const BAR_WIDTH = 4;
const GAP = 1;
const HEIGHT = 20;

/** What both strips draw: the last `slots` heartbeats oldest first, each bar's height, the width, a summary. */
function strip<Beat extends HeartbeatBar>(props: { heartbeats: Beat[]; slots: number }) {
  const beats = props.heartbeats.slice(0, props.slots).reverse();
  const most = Math.max(1, ...beats.map((b) => b.newCount));
  const failures = beats.filter((b) => !['ok', 'not_modified'].includes(b.status)).length;
  return {
    beats,
    /** The first slot with a heartbeat: the ones before it are empty. */
    first: props.slots - beats.length,
    width: props.slots * (BAR_WIDTH + GAP),
    label: `${count(beats.length, 'poll', 'polls')}, ${failures} failed, ${count(
      beats.reduce((n, b) => n + b.newCount, 0),
      'new entry',
      'new entries',
    )}`,
    /** A thin bar for a poll without new entries, else one in proportion to the most of the strip. */
    heightOf: (beat: HeartbeatBar) =>
      beat.newCount === 0 ? 3 : 4 + Math.round(((HEIGHT - 4) * beat.newCount) / most),
  };
}

/**
 * The last heartbeats as a strip of bars, oldest on the left: height is the new entries of that poll
 * (a thin bar for none), colour its status (a class, so that the theme decides). Each bar has a
 * <title> for the details on hover, and the whole strip an accessible summary.
 */
export function Sparkline(props: { heartbeats: Heartbeat[]; slots: number }) {
  const { beats, first, width, label, heightOf } = strip(props);
  return (
    <svg
      class="spark"
      width={width}
      height={HEIGHT}
      viewBox={`0 0 ${width} ${HEIGHT}`}
      role="img"
      aria-label={label}
      xmlns="http://www.w3.org/2000/svg"
    >
      {Array.from({ length: first }, (_, i) => (
        <rect class="hb hb-none" x={i * (BAR_WIDTH + GAP)} y={HEIGHT - 2} width={BAR_WIDTH} height={2} />
      ))}
      {beats.map((beat, i) => {
        const height = heightOf(beat);
        return (
          <rect
            class={`hb hb-${beat.status}`}
            x={(first + i) * (BAR_WIDTH + GAP)}
            y={HEIGHT - height}
            width={BAR_WIDTH}
            height={height}
          >
            <title>{`${formatTimestamp(beat.at)}: ${healthWords(beat.status)}, ${beat.newCount} new`}</title>
          </rect>
        );
      })}
    </svg>
  );
}

/**
 * The last heartbeats drawn compactly for the health list: one path per status rather than one
 * element (with a tooltip) per poll, and one summary as its title. 2,000 feeds with 30 bars and
 * tooltips each were 8.8 MB of HTML; the details of each poll are on the feed's page.
 */
export function HeartbeatStrip(props: { heartbeats: HeartbeatBar[]; slots: number }) {
  const { beats, first, width, label, heightOf } = strip(props);
  const paths = new Map<string, string[]>();
  const bar = (status: string, slot: number, height: number) => {
    const list = paths.get(status) ?? [];
    list.push(`M${slot * (BAR_WIDTH + GAP)} ${HEIGHT}v-${height}h${BAR_WIDTH}v${height}z`);
    paths.set(status, list);
  };
  for (let slot = 0; slot < first; slot++) bar('none', slot, 2);
  for (const [i, beat] of beats.entries()) bar(beat.status, first + i, heightOf(beat));
  return (
    <svg
      class="spark"
      width={width}
      height={HEIGHT}
      viewBox={`0 0 ${width} ${HEIGHT}`}
      role="img"
      aria-label={label}
    >
      <title>{label}</title>
      {[...paths].map(([status, parts]) => (
        <path class={`hb hb-${status}`} d={parts.join('')} />
      ))}
    </svg>
  );
}
