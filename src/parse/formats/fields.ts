import { resolveUrl } from '../../html/index.js';
import type { Person, Text } from '../../model/index.js';
import { type Handler, type ParseContext, placeOf, type Scope, type Target } from '../context.js';
import { parseDate } from '../dates/index.js';
import { textOf, type XmlElement } from '../xml/index.js';
import { parsePersonString, personString } from './people.js';
import { readText, type TextOptions } from './read-text.js';

type StringKey = {
  [K in keyof Target]-?: Target[K] extends string | undefined ? K : never;
}[keyof Target];
type TextKey = 'title' | 'subtitle' | 'summary' | 'rights' | 'info';
type DateKey = 'published' | 'updated' | 'created' | 'expired';
type PersonKey = 'author' | 'publisher';

type ListKey<T> = { [K in keyof T]-?: NonNullable<T[K]> extends readonly unknown[] ? K : never }[keyof T];
type ItemOf<L> = L extends readonly (infer V)[] ? V : never;

/** Appends a value to a list key of a feed or entry, creating the list on first use. */
export function append<T extends object, K extends ListKey<T>>(
  target: T,
  key: K,
  value: ItemOf<NonNullable<T[K]>>,
): void {
  const list = (target[key] as unknown[] | undefined) ?? [];
  list.push(value);
  target[key] = list as T[K];
}

/** The trimmed text of an element. */
export function trimmedText(el: XmlElement): string {
  return textOf(el).trim();
}

/** Sets a plain string key from the element's text (a later element overrides an earlier one). */
export function stringField(key: StringKey): Handler {
  return (_ctx, el, target) => {
    const value = trimmedText(el);
    if (value !== '') (target as Record<string, unknown>)[key] = value;
  };
}

/** Sets a URL key from the element's text, resolved against xml:base. */
export function urlField(key: StringKey): Handler {
  return (_ctx, el, target, scope) => {
    const value = trimmedText(el);
    if (value !== '' && target[key] === undefined) {
      (target as Record<string, unknown>)[key] = resolveUrl(value, scope.base);
    }
  };
}

export const RSS_TEXT: TextOptions = { fallback: 'text/plain', guessHtml: true, unwrapDiv: false };
export const RSS_HTML: TextOptions = { fallback: 'text/html', guessHtml: true, unwrapDiv: false };

/** Sets a text construct (`title` and `titleDetail`); as in the Universal Feed Parser, the last one wins. */
export function textField(key: TextKey, options: TextOptions): Handler {
  return (ctx, el, target, scope) => {
    setText(target, key, readText(ctx, el, scope, options));
  };
}

/**
 * An item's description or summary: the first one is the summary; when an item has both, the
 * second one is content (feeds use them as short and long versions).
 */
export function summaryField(options: TextOptions): Handler {
  return (ctx, el, target, scope) => {
    const text = readText(ctx, el, scope, options);
    if (target.summary === undefined) setText(target, 'summary', text);
    else append(target, 'content', text);
  };
}

/** Writes a text construct and its plain value. */
export function setText(target: Target, key: TextKey, text: Text): void {
  (target as Record<string, unknown>)[key] = text.value;
  (target as Record<string, unknown>)[`${key}Detail`] = text;
}

/** Sets a date key (`published`, with `publishedRaw`), reporting dates it cannot read; the last one wins. */
export function dateField(key: DateKey): Handler {
  return (ctx, el, target) => {
    const raw = trimmedText(el);
    if (raw === '') return;
    setDate(ctx, el, target, key, raw);
  };
}

/** Writes a date and its raw text; an unreadable date keeps only the raw text, with a warning. */
export function setDate(ctx: ParseContext, el: XmlElement, target: Target, key: DateKey, raw: string): void {
  const iso = parseDate(raw);
  (target as Record<string, unknown>)[`${key}Raw`] = raw;
  if (iso !== undefined) {
    (target as Record<string, unknown>)[key] = iso;
    return;
  }
  delete (target as Record<string, unknown>)[key];
  ctx.diagnostics.add(
    'date.unparseable',
    `parse: cannot read the date "${raw.slice(0, 80)}"`,
    placeOf(ctx, el),
  );
}

/** Adds a person given as a string (RSS `author`, `dc:creator`, `managingEditor`). */
export function personStringField(key: PersonKey): Handler {
  return (_ctx, el, target) => {
    const value = trimmedText(el);
    if (value === '') return;
    addPerson(target, key, parsePersonString(value));
  };
}

/** Adds a person: the first one sets `author`/`authorDetail`, all go to `authors` (authors only). */
export function addPerson(target: Target, key: PersonKey, person: Person): void {
  if (key === 'author') {
    target.authors ??= [];
    target.authors.push(person);
  }
  if (target[`${key}Detail`] === undefined) {
    target[`${key}Detail`] = person;
    const display = personString(person);
    if (display !== undefined) target[key] = display;
  }
}

/** Reads an Atom person construct (name, email, uri) from its child elements. */
export function readPersonElement(el: XmlElement, scope: Scope): Person {
  const person: Person = {};
  for (const child of el.children) {
    if (!('local' in child)) continue;
    const value = trimmedText(child);
    if (value === '') continue;
    const local = child.local.toLowerCase();
    if (local === 'name') person.name ??= value;
    else if (local === 'email') person.email ??= value;
    else if (local === 'uri' || local === 'url' || local === 'homepage')
      person.uri ??= resolveUrl(value, scope.base);
  }
  return person;
}
