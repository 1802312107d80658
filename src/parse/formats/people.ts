import type { Person } from '../../model/index.js';

const EMAIL_RE =
  /(([a-zA-Z0-9_.+-]+)@((\[[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.)|(([a-zA-Z0-9-]+\.)+))([a-zA-Z]{2,4}|[0-9]{1,3})(\]?))(\?subject=\S+)?/;

/**
 * Splits an RSS author string into name and email: RSS 2.0 asks for `email (Name)`, feeds also
 * write `Name (email)`, `Name <email>`, a bare name or a bare email.
 */
export function parsePersonString(raw: string): Person {
  const value = raw.trim();
  const match = EMAIL_RE.exec(value);
  if (!match) return value ? { name: value } : {};
  const email = match[1] as string;
  let name = value
    .replace(match[0], '')
    .replace(/\(\)/g, '')
    .replace(/<>/g, '')
    .replace(/&lt;&gt;/g, '');
  name = name.trim();
  if (name.startsWith('(') && name.endsWith(')')) name = name.slice(1, -1).trim();
  if (name.startsWith('<') && name.endsWith('>')) name = name.slice(1, -1).trim();
  if (name.endsWith('mailto:')) name = name.slice(0, -7).trim();
  const person: Person = { email: email.replace(/^mailto:/i, '') };
  if (name) person.name = name;
  return person;
}

/** The display string of a person: `Name (email)`, the name, or the email. */
export function personString(person: Person): string | undefined {
  if (person.name && person.email) return `${person.name} (${person.email})`;
  return person.name ?? person.email;
}
