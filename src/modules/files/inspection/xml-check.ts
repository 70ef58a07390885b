// Well-formedness of XML uploads (xml, svg, and the XML parts of office packages). Any DOCTYPE is
// refused outright: without a DTD there are no entity declarations, so neither external entities
// (XXE) nor entity expansion (billion laughs) can reach whatever later parses the document.
import { SaxesParser } from 'saxes';

export interface XmlElement {
  /** local name, without prefix */
  local: string;
  /** namespace URI ('' when none) */
  uri: string;
  attributes: ReadonlyMap<string, string>;
}

export interface XmlFacts {
  root: XmlElement;
  /** the namespace URIs of every element */
  elementNamespaces: ReadonlySet<string>;
  /** the targets of processing instructions (`xml-stylesheet`, …) */
  processingInstructions: ReadonlySet<string>;
}

export type XmlCheck = ({ ok: true } & XmlFacts) | { ok: false; message: string };

class Refusal extends Error {}

/** Deeper nesting than this is refused: no real document needs it, and recursive consumers
 * (serializers, renderers) overflow their stacks on it. */
export const MAX_XML_DEPTH = 512;

/** Parses the whole document; `visit` may refuse an element by returning a reason. */
export function checkXml(text: string, visit?: (element: XmlElement) => string | undefined): XmlCheck {
  const parser = new SaxesParser({ xmlns: true, position: true });
  let root: XmlElement | undefined;
  const elementNamespaces = new Set<string>();
  const processingInstructions = new Set<string>();
  parser.on('doctype', () => {
    throw new Refusal('it declares a DOCTYPE (document type definitions are not accepted)');
  });
  parser.on('processinginstruction', (pi) => processingInstructions.add(pi.target));
  let depth = 0;
  parser.on('closetag', () => {
    depth -= 1;
  });
  parser.on('opentag', (tag) => {
    depth += 1;
    if (depth > MAX_XML_DEPTH) throw new Refusal(`its elements nest deeper than ${MAX_XML_DEPTH} levels`);
    const attributes = new Map<string, string>();
    for (const attribute of Object.values(tag.attributes)) attributes.set(attribute.name, attribute.value);
    const element: XmlElement = { local: tag.local, uri: tag.uri, attributes };
    root ??= element;
    elementNamespaces.add(tag.uri);
    const reason = visit?.(element);
    if (reason) throw new Refusal(reason);
  });
  try {
    parser.write(text).close();
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, message: `The XML is refused: ${error.message}` };
    // saxes' own errors read "line:column: what"
    return { ok: false, message: `The XML is not well-formed: ${(error as Error).message}` };
  }
  if (!root) return { ok: false, message: 'The XML has no root element' };
  return { ok: true, root, elementNamespaces, processingInstructions };
}
