import { resolveUrl } from '../../../html/index.js';
import type { Handler, Target } from '../../context.js';
import { append, RSS_HTML, RSS_TEXT, stringField, textField, trimmedText } from '../fields.js';
import { readText } from '../read-text.js';

/** content:encoded: the full HTML of an item. */
const readEncoded: Handler = (ctx, el, target, scope) => {
  const text = readText(ctx, el, scope, RSS_HTML);
  if (text.value === '') return;
  append(target, 'content', text);
};

/** An RDF resource or the text of an element, resolved as a URL. */
function resourceField(key: 'license' | 'errorreportsto' | 'wfwCommentRss' | 'generator'): Handler {
  return (_ctx, el, target, scope) => {
    const raw = (el.attrs['rdf:resource'] ?? el.attrs['resource'] ?? trimmedText(el)).trim();
    if (!raw) return;
    const url = resolveUrl(raw, scope.base);
    if (key === 'license') {
      target.license ??= url;
      append(target, 'links', { rel: 'license', href: url });
    } else if (key === 'generator') {
      target.generator ??= url;
      target.generatorDetail ??= { href: url };
    } else target[key] ??= url;
  };
}

const readSy: (key: 'updatePeriod' | 'updateFrequency' | 'updateBase') => Handler =
  (key) => (_ctx, el, target) => {
    const value = trimmedText(el);
    if (!value) return;
    target.syndication ??= {};
    if (key === 'updateFrequency') {
      const n = Number.parseInt(value, 10);
      if (Number.isFinite(n) && n > 0) target.syndication.updateFrequency = n;
    } else target.syndication[key] = value;
  };

const readSlashComments: Handler = (_ctx, el, target) => {
  const n = Number.parseInt(trimmedText(el), 10);
  if (Number.isFinite(n)) target.slashComments = n;
};

const readInReplyTo: Handler = (_ctx, el, target, scope) => {
  const reply: NonNullable<Target['thrInReplyTo']>[number] = {};
  for (const key of ['ref', 'href', 'type', 'source'] as const) {
    const value = el.attrs[key]?.trim();
    if (value) reply[key] = key === 'href' || key === 'source' ? resolveUrl(value, scope.base) : value;
  }
  append(target, 'thrInReplyTo', reply);
};

/** GeoRSS point ("lat lon") and W3C geo lat/long. */
const readGeoPoint: Handler = (_ctx, el, target) => {
  const parts = trimmedText(el)
    .split(/[\s,]+/)
    .map(Number);
  if (parts.length < 2 || parts.some((n) => !Number.isFinite(n))) return;
  target.where = { type: 'Point', coordinates: [parts[0] as number, parts[1] as number] };
};

const readFeedburnerOrigLink: Handler = (_ctx, el, target, scope) => {
  const value = trimmedText(el);
  if (value) target.feedburnerOrigLink = resolveUrl(value, scope.base);
};

/** The smaller RSS modules: content, syndication, slash, wfw, thr, cc, admin, GeoRSS, FeedBurner. */
export function modules(): [string, Handler][] {
  return [
    ['content:encoded', readEncoded],
    ['sy:updateperiod', readSy('updatePeriod')],
    ['sy:updatefrequency', readSy('updateFrequency')],
    ['sy:updatebase', readSy('updateBase')],
    ['slash:comments', readSlashComments],
    ['wfw:commentrss', resourceField('wfwCommentRss')],
    ['wfw:comment', stringField('wfwComment')],
    ['thr:in-reply-to', readInReplyTo],
    ['cc:license', resourceField('license')],
    ['creativecommons:license', resourceField('license')],
    ['admin:errorreportsto', resourceField('errorreportsto')],
    ['admin:generatoragent', resourceField('generator')],
    ['georss:point', readGeoPoint],
    ['feedburner:origlink', readFeedburnerOrigLink],
    ['feedburner:browserfriendly', textField('info', RSS_TEXT)],
  ];
}
