import { html } from 'hono/html';
import type { TimelineEntry } from '../../store/index.js';
import { PostForm } from './layout.js';

/**
 * "Save" / "Saved": stars or unstars an entry (the `s` key). A toggle button, `aria-pressed` when saved;
 * the page's script sends it with fetch (data-action="toggle-save"), without it the form posts as usual.
 */
export function SaveForm(props: { entry: TimelineEntry; csrf: string; returnTo: string; class?: string }) {
  const isSaved = props.entry.isSaved === true;
  return PostForm({
    action: `/entries/${props.entry.id}/save`,
    csrf: props.csrf,
    returnTo: props.returnTo,
    dataAction: 'toggle-save',
    class: props.class ? `inline ${props.class}` : 'inline',
    // an html template, the same HTML as JSX: a page has up to fifty of these
    children: html`<input type="hidden" name="saved" value="${isSaved ? '0' : '1'}"/><button type="submit" aria-pressed="${isSaved ? 'true' : 'false'}" data-save-label="true" title="${isSaved ? 'Saved: press to unsave (s)' : 'Save this entry (s)'}">${isSaved ? 'Saved' : 'Save'}</button>`,
  });
}
