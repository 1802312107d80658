import type { XmlElement, XmlNode } from '../xml/index.js';

// Objects that hold elements; other objects are one element whose members are its attributes.
const CONTAINERS = new Set(['rss', 'channel', 'item', 'image', 'textinput']);

/** True for "RSS in JSON" (scripting.com's rss.js format): `{"rss": {"channel": {...}}}`. */
export function isRssInJson(doc: unknown): doc is { rss: Record<string, unknown> } {
  if (typeof doc !== 'object' || doc === null) return false;
  const rss = (doc as Record<string, unknown>)['rss'];
  return typeof rss === 'object' && rss !== null && 'channel' in rss;
}

/**
 * Turns RSS in JSON into the element tree RSS XML would give, so that the RSS reader reads both.
 * Elements made this way have no position in the text (offset -1).
 */
export function rssJsonToTree(rss: Record<string, unknown>): XmlElement {
  return toElement('rss', rss, undefined);
}

function toElement(name: string, value: unknown, parent: XmlElement | undefined): XmlElement {
  const el: XmlElement = {
    name,
    local: name.split(':').pop() ?? name,
    ns: name.includes(':') ? `urn:json:${name.split(':')[0]}` : '',
    attrs: {},
    children: [],
    parent,
    offset: -1,
    scope: {},
  };
  if (typeof value !== 'object' || value === null) {
    el.children.push({ text: String(value) });
    return el;
  }
  const container = CONTAINERS.has(name.toLowerCase());
  for (const [key, member] of Object.entries(value as Record<string, unknown>)) {
    if (key === 'value' || key === '#value') el.children.push({ text: String(member) });
    else if (key === 'flPermaLink') el.attrs['isPermaLink'] = String(member);
    else if (Array.isArray(member)) for (const item of member) el.children.push(toElement(key, item, el));
    else if (!container && (typeof member !== 'object' || member === null)) el.attrs[key] = String(member);
    else el.children.push(toElement(key, member, el) as XmlNode);
  }
  return el;
}
