import type { Handler } from '../../context.js';
import {
  dateField,
  personStringField,
  RSS_HTML,
  RSS_TEXT,
  stringField,
  summaryField,
  textField,
  trimmedText,
} from '../fields.js';
import { parsePersonString } from '../people.js';
import { readCategory } from '../rss.js';

const readContributor: Handler = (_ctx, el, target) => {
  const value = trimmedText(el);
  if (value === '') return;
  target.contributors ??= [];
  target.contributors.push(parsePersonString(value));
};

/** Dublin Core (dc: and dcterms:) elements, at feed and at entry level. */
export function dublinCore(level: 'feed' | 'entry'): [string, Handler][] {
  return [
    ['dc:title', textField('title', RSS_TEXT)],
    ['dc:description', level === 'feed' ? textField('subtitle', RSS_HTML) : summaryField(RSS_HTML)],
    ['dc:creator', personStringField('author')],
    ['dc:author', personStringField('author')],
    ['dc:contributor', readContributor],
    ['dc:publisher', personStringField('publisher')],
    ['dc:rights', textField('rights', RSS_TEXT)],
    ['dc:subject', readCategory],
    ['dc:language', stringField('language')],
    ['dc:date', dateField('updated')],
    ['dcterms:issued', dateField('published')],
    ['dcterms:created', dateField('created')],
    ['dcterms:modified', dateField('updated')],
    ['dcterms:rights', textField('rights', RSS_TEXT)],
    ['dcterms:license', stringField('license')],
  ];
}
