// Inline SVG and MathML allowlists. The Universal Feed Parser keeps both when the root element carries
// (or, in HTML, is given) its namespace: namespace/rss2.0svg*.xml, atomsvg*.xml, *mathml.xml, *xlink.xml.
// SVG names are camelCase; HTML tokenizing lower-cases them, so they are mapped back on output.

export const SVG_NAMESPACE = 'http://www.w3.org/2000/svg';
export const MATHML_NAMESPACE = 'http://www.w3.org/1998/Math/MathML';
export const XLINK_NAMESPACE = 'http://www.w3.org/1999/xlink';

function set(words: string): ReadonlySet<string> {
  return new Set(words.trim().split(/\s+/));
}

/** Lower-cased name -> name as written in SVG. */
function caseMap(words: string): ReadonlyMap<string, string> {
  return new Map(
    words
      .trim()
      .split(/\s+/)
      .map((word) => [word.toLowerCase(), word]),
  );
}

// Left out on purpose (issue 12; DOMPurify leaves them out too): maction (it toggles and links what
// it holds), annotation-xml (an HTML integration point: HTML inside MathML is how namespace-confusion
// XSS starts), mglyph and malignmark (the two elements whose namespace depends on where they sit).
// Inside MathML, anything not listed is dropped with its content.
export const MATHML_ELEMENTS = set(`
  annotation maligngroup math menclose merror mfenced mfrac mi
  mlabeledtr mlongdiv mmultiscripts mn mo mover mpadded mphantom mprescripts mroot mrow ms mscarries
  mscarry msgroup msline mspace msqrt msrow mstack mstyle msub msubsup msup mtable mtd mtext mtr munder
  munderover none semantics
`);

export const MATHML_ATTRIBUTES = set(`
  accent accentunder actiontype align alignmentscope altimg altimg-height altimg-valign altimg-width
  alttext bevelled charalign close columnalign columnlines columnspacing columnspan columnwidth crossout
  decimalpoint denomalign depth dir display displaystyle edge encoding equalcolumns equalrows fence
  fontstyle fontweight form frame framespacing groupalign height href id indentalign indentalignfirst
  indentalignlast indentshift indentshiftfirst indentshiftlast indenttarget infixlinebreakstyle largeop
  length linebreak linebreakmultchar linebreakstyle lineleading linethickness location longdivstyle
  lquote lspace mathbackground mathcolor mathsize mathvariant maxsize minlabelspacing minsize
  movablelimits notation numalign open other overflow position rowalign rowlines rowspacing rowspan
  rquote rspace scriptlevel scriptminsize scriptsizemultiplier selection separator separators shift side
  src stackalign stretchy subscriptshift superscriptshift symmetric voffset width xlink:href xlink:show
  xlink:type xmlns xmlns:xlink
`);

// Left out on purpose (issue 12): the SMIL animation elements (set, animate, animateColor,
// animateMotion, animateTransform and mpath): `<set attributeName="onmouseover" to="alert(1)">` and
// `<animate attributeName="href" values="javascript:...">` write script into attributes after
// sanitizing; and foreignObject, which holds HTML inside SVG. Inside SVG, anything not listed is
// dropped with its content.
/** SVG elements, keyed by lower-cased name. */
export const SVG_ELEMENTS = caseMap(`
  a circle defs desc ellipse font-face font-face-name font-face-src g glyph hkern line linearGradient
  marker metadata missing-glyph path polygon polyline radialGradient rect stop svg switch text title
  tspan use
`);

/** SVG attributes, keyed by lower-cased name. */
export const SVG_ATTRIBUTES = caseMap(`
  accent-height accumulate additive alphabetic arabic-form ascent attributeName attributeType
  baseProfile bbox begin by calcMode cap-height class color color-rendering content cx cy d descent
  display dur dx dy end fill fill-opacity fill-rule font-family font-size font-stretch font-style
  font-variant font-weight from fx fy g1 g2 glyph-name gradientUnits hanging height horiz-adv-x
  horiz-origin-x id ideographic k keyPoints keySplines keyTimes lang marker-end marker-mid marker-start
  markerHeight markerUnits markerWidth mathematical max min name offset opacity orient origin
  overline-position overline-thickness panose-1 path pathLength points preserveAspectRatio r refX refY
  repeatCount repeatDur requiredExtensions requiredFeatures restart rotate rx ry slope stemh stemv
  stop-color stop-opacity strikethrough-position strikethrough-thickness stroke stroke-dasharray
  stroke-dashoffset stroke-linecap stroke-linejoin stroke-miterlimit stroke-opacity stroke-width
  systemLanguage target text-anchor to transform type u1 u2 underline-position underline-thickness
  unicode unicode-range units-per-em values version viewBox visibility width widths x x-height x1 x2
  xlink:actuate xlink:arcrole xlink:href xlink:role xlink:show xlink:title xlink:type xml:base xml:lang
  xml:space xmlns xmlns:xlink y y1 y2 zoomAndPan
`);

/** CSS properties allowed in style attributes inside SVG only. */
export const SVG_CSS_PROPERTIES = set(`
  fill fill-opacity fill-rule stroke stroke-linecap stroke-linejoin stroke-opacity stroke-width
`);
