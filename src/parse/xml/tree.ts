/** An element of a parsed XML document, with its namespace resolved. */
export interface XmlElement {
  /** The qualified name as written, e.g. `dc:creator`. */
  name: string;
  /** The local part of the name, e.g. `creator`. */
  local: string;
  /** The namespace URI the prefix resolves to; '' for none. */
  ns: string;
  /** Attributes by qualified name as written (`xml:base`, `rdf:about`, `href`). */
  attrs: Record<string, string>;
  children: XmlNode[];
  parent: XmlElement | undefined;
  /** String index of the tag in the decoded document (for line and column). */
  offset: number;
  /** The namespace declarations in scope (prefix -> URI; '' is the default namespace). */
  scope: NamespaceScope;
}

/** Text (entity-decoded) or CDATA content, or an element. */
export type XmlNode = XmlElement | XmlText;

export interface XmlText {
  text: string;
  /** True when the text came from a CDATA section. */
  cdata?: boolean;
}

export type NamespaceScope = Readonly<Record<string, string>>;

/** The result of reading a document into a tree, strictly or tolerantly. */
export interface XmlDocument {
  root: XmlElement | undefined;
  /** Every namespace declared anywhere in the document: prefix -> URI. */
  declared: Record<string, string>;
  /** The internal or external subset of the DOCTYPE, when there was one. */
  doctype?: string;
  /** Items or entries left out of the tree past the limit on entries (TreeLimits.maxEntries). */
  skippedEntries?: number;
  /** Where the first of them starts (document offset): what goes wrong past it is in no kept entry. */
  skippedFrom?: number;
  /** Markup at the top before the feed's root element (a server's warning printed first), when there was. */
  before?: { name: string; offset: number };
}

export function isElement(node: XmlNode): node is XmlElement {
  return (node as XmlElement).local !== undefined;
}

/** Concatenated text of an element's direct text and CDATA children. */
export function textOf(el: XmlElement): string {
  const { children } = el;
  if (children.length === 1) {
    const only = children[0] as XmlNode;
    return isElement(only) ? '' : only.text;
  }
  let out = '';
  for (const child of children) if (!isElement(child)) out += child.text;
  return out;
}

/** The element children of an element. */
export function childElements(el: XmlElement): XmlElement[] {
  return el.children.filter(isElement);
}

/** The first child element with this namespace and local name. */
export function findChild(el: XmlElement, ns: string, local: string): XmlElement | undefined {
  for (const child of el.children) {
    if (isElement(child) && child.local === local && child.ns === ns) return child;
  }
  return undefined;
}

/** The value of an attribute by local name in no namespace, or by qualified name. */
export function attr(el: XmlElement, name: string): string | undefined {
  return el.attrs[name];
}

/** True when the element has at least one child element. */
export function hasChildElements(el: XmlElement): boolean {
  for (const child of el.children) if (isElement(child)) return true;
  return false;
}
