// The allowlists of the HTML sanitizer. They reproduce the Universal Feed Parser's, because its corpus
// (wellformed/sanitize/acceptable_element_*.xml, acceptable_attribute_*.xml, namespace/*svg*.xml,
// namespace/*mathml*.xml) states them element by element, except where what it keeps is active or
// deceptive in a page (issue 12): forms and their controls (a password form inside an entry is
// phishing), noscript, `for` (a label clicks the reader's own control of that id). Microsub clients and
// sync apps show this HTML in their own views, without tidings' CSP.

function set(words: string): ReadonlySet<string> {
  return new Set(words.trim().split(/\s+/));
}

/** HTML elements kept (with their allowed attributes). */
export const ACCEPTABLE_ELEMENTS = set(`
  a abbr acronym address area article aside audio b big blockquote br canvas caption center cite code
  col colgroup datagrid dd del details dfn dialog dir div dl dt em event-source fieldset figcaption
  figure font footer h1 h2 h3 h4 h5 h6 header hr i img ins kbd label legend li m map mark menu meter
  multicol nav nextid ol p pre progress q s samp section small sound source spacer span strike strong
  sub sup table tbody td tfoot th thead time tr tt u ul var video
`);

/** HTML attributes kept on acceptable elements (`autoplay` is deliberately absent: acceptable_attribute_autoplay.xml). */
export const ACCEPTABLE_ATTRIBUTES = set(`
  abbr accept accept-charset accesskey action align alt autocomplete autofocus axis background balance
  bgcolor bgproperties border bordercolor bordercolordark bordercolorlight bottompadding cellpadding
  cellspacing ch challenge char charoff charset checked choff cite class clear color cols colspan
  compact contenteditable controls coords data datafld datapagesize datasrc datetime default delay dir
  disabled draggable dynsrc enctype end face form frame galleryimg gutter headers height hidden
  hidefocus high href hreflang hspace icon id inputmode ismap keytype label lang leftspacing list
  longdesc loop loopcount loopend loopstart low lowsrc max maxlength media method min multiple name
  nohref noshade nowrap open optimum pattern ping point-size poster pqg preload prompt radiogroup
  readonly rel repeat-max repeat-min replace required rev rightspacing rows rowspan rules scope selected
  shape size span src start step style summary suppress tabindex target template title toppadding type
  unselectable urn usemap valign value variable volume vrml vspace width wrap xml:lang
`);

/** Elements whose text is dropped along with them, not only their tags (entry_content_script.xml ...). */
export const HIDDEN_CONTENT_ELEMENTS = set('script style applet');

// Elements dropped with everything inside them: what they hold is no text a reader needs (the options
// of a select), or is never shown where scripts run (noscript, template, noembed, noframes), and is
// the classic carrier of mutation XSS when a sanitizer keeps it as markup (`<noscript><p
// title="</noscript><img src=x onerror=...>">`). button, form, input, keygen and output lose their tags
// only: a button's label and the text around a form stay.
export const DROPPED_WITH_CONTENT_ELEMENTS = set(
  'datalist noembed noframes noscript optgroup option select template',
);

/** Raw-text elements whose content is written as escaped text: a browser shows it as text, never as markup. */
export const TEXT_ONLY_ELEMENTS = set('plaintext textarea xmp');

// Start tags that end SVG and MathML in a browser (HTML "parsing tokens in foreign content"): the
// element opens as HTML after the foreign elements, which the sanitizer closes first so that its idea of
// the namespace and the browser's never differ. font breaks out only with color, face or size; it is
// taken to break out always, which writes `</svg>` where a browser would not need it.
// SVG title and desc and MathML's token elements are integration points: a browser reads any tag in
// them (but a breakout tag) as HTML, not as SVG or MathML. The sanitizer keeps only their text.
export const INTEGRATION_POINTS = set('desc title mi mn mo ms mtext');

export const BREAKOUT_ELEMENTS = set(`
  b big blockquote body br center code dd div dl dt em embed font h1 h2 h3 h4 h5 h6 head hr i img li
  listing menu meta nobr ol p pre ruby s small span strike strong sub sup table tt u ul var
`);

/** Elements written as `<br />` and never closed. */
export const VOID_ELEMENTS = set(`
  area base basefont br col command embed frame hr img input isindex keygen link meta param source track wbr
`);

// Elements htmlparser2's tokenizer reads as raw text or RCDATA (no tags inside). The Universal Feed
// Parser's SGML parser has no such elements, so their content is read again as markup when it is shown
// (entry_content_iframe.xml, entry_content_crazy.xml).
export const RAW_TEXT_ELEMENTS = set('iframe noembed noframes plaintext script style textarea title xmp');

/** URL-valued attributes resolved against the base, by element (the Universal Feed Parser's list). */
export const RELATIVE_URL_ATTRIBUTES: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['a', set('href')],
  ['applet', set('codebase')],
  ['area', set('href')],
  ['audio', set('src')],
  ['blockquote', set('cite')],
  ['body', set('background')],
  ['del', set('cite')],
  ['form', set('action')],
  ['frame', set('longdesc src')],
  ['iframe', set('longdesc src')],
  ['head', set('profile')],
  ['img', set('longdesc src usemap')],
  ['input', set('src usemap')],
  ['ins', set('cite')],
  ['link', set('href')],
  ['object', set('classid codebase data usemap')],
  ['q', set('cite')],
  ['script', set('src')],
  ['source', set('src')],
  ['video', set('poster src')],
]);

/** Attributes holding a URL that a browser may load or follow: their scheme must be safe. */
export const URL_ATTRIBUTES = set(`
  action background cite data dynsrc href longdesc lowsrc ping poster src usemap xlink:href
`);

// When one of these opens while the element on top of the stack is in its set, a browser closes that
// element implicitly (HTML "in body" insertion mode); the sanitizer does the same without writing an
// end tag, so that it never writes a stray `</p>` (which browsers turn into an empty paragraph).
const CLOSES_P = set(`
  address article aside blockquote center details dialog dir div dl fieldset figcaption figure footer
  form h1 h2 h3 h4 h5 h6 header hr menu nav ol p pre section table ul
`);
const HEADINGS = set('h1 h2 h3 h4 h5 h6');
export const IMPLIED_CLOSES: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['li', set('li p')],
  ['dd', set('dd dt p')],
  ['dt', set('dd dt p')],
  ['option', set('option')],
  ['optgroup', set('optgroup option')],
  ['tr', set('tr td th')],
  ['td', set('td th')],
  ['th', set('td th')],
  ['thead', set('tbody tfoot thead tr td th')],
  ['tbody', set('tbody tfoot thead tr td th')],
  ['tfoot', set('tbody tfoot thead tr td th')],
  ...[...HEADINGS].map((h): [string, ReadonlySet<string>] => [h, new Set([...HEADINGS, 'p'])]),
  ...[...CLOSES_P]
    .filter((name) => !HEADINGS.has(name))
    .map((name): [string, ReadonlySet<string>] => [name, set('p')]),
]);
