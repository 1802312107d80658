import type * as Crypto from 'node:crypto';
import { createRequire } from 'node:module';
import type * as Chardet from 'chardet';
import type * as Htmlparser2 from 'htmlparser2';
import type * as Microformats from 'microformats-parser';
import type * as Saxes from 'saxes';

// Modules loaded with require() rather than import, for memory (bench:parse, peak RSS). htmlparser2
// (4 MB), microformats-parser (4 MB) and node:crypto (2 MB) are loaded on first use: most documents
// never need them. saxes is a
// CommonJS package: imported from an ES module, Node.js first scans its source for export names, and
// compiling that scanner cost 6 MB. Node.js 20.19 and later load ES modules with require() too.
const require = createRequire(import.meta.url);
let htmlparser2: typeof Htmlparser2 | undefined;
let crypto: typeof Crypto | undefined;
let saxes: typeof Saxes | undefined;
let microformats: typeof Microformats | undefined;
let chardet: typeof Chardet | undefined;

/** saxes, the strict XML parser. */
export function loadSaxes(): typeof Saxes {
  saxes ??= require('saxes') as typeof Saxes;
  return saxes;
}

/** htmlparser2, which reads XML that is not well-formed and HTML pages. */
export function loadHtmlparser(): typeof Htmlparser2 {
  htmlparser2 ??= require('htmlparser2') as typeof Htmlparser2;
  return htmlparser2;
}

/** node:crypto, which hashes the content of entries that have neither guid nor link. */
export function loadCrypto(): typeof Crypto {
  crypto ??= require('node:crypto') as typeof Crypto;
  return crypto;
}

/** microformats-parser, which reads h-feed pages. */
export function loadMicroformats(): typeof Microformats {
  microformats ??= require('microformats-parser') as typeof Microformats;
  return microformats;
}

/** chardet, which guesses the charset of a document that declares none and is not UTF-8. */
export function loadChardet(): typeof Chardet {
  chardet ??= require('chardet') as typeof Chardet;
  return chardet;
}
