import type { FeedHealth } from '../../model/index.js';

const WORDS: Record<FeedHealth, string> = {
  ok: 'ok',
  not_modified: 'not modified',
  fetch_error: 'fetch error',
  parse_error: 'parse error',
  encoding_error: 'encoding error',
  gone: 'gone',
  silent: 'silent',
  paused: 'paused',
  new: 'not fetched yet',
  unfollowed: 'unfollowed',
};

/** A feed's health in words, coloured by a class (colour never carries the meaning alone). */
export function StatusBadge(props: { health: FeedHealth }) {
  return (
    <span class={`status status-${props.health}`} data-status={props.health}>
      {WORDS[props.health]}
    </span>
  );
}

/** The words for a health value. */
export function healthWords(health: FeedHealth): string {
  return WORDS[health];
}
