import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { ExtractionError } from '../engine.types.js';

/**
 * Largest XML the e-invoice reader parses (bytes). An XRechnung or Factur-X invoice of a thousand lines is well under
 * 2 MiB; an XML upload above this fails `file_too_large`, a larger PDF attachment is ignored.
 */
export const MAX_EINVOICE_XML_BYTES = 16 * 1024 * 1024;
/** Deepest element nesting read (CII line items sit about 8 levels down; fast-xml-parser refuses deeper input). */
const MAX_XML_DEPTH = 64;

/** The five predefined XML entities and character references: decoded after parsing, never expanded from a DTD. */
const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
function decodeReferences(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(?:#x([0-9a-f]{1,6})|#(\d{1,7})|(amp|lt|gt|quot|apos));/gi, (m, hex?: string, dec?: string, name?: string) => {
    if (name) return PREDEFINED[name.toLowerCase()] ?? m;
    const cp = hex ? parseInt(hex, 16) : Number(dec);
    return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : m;
  });
}

/**
 * The parser every e-invoice is read with: entity processing off (no DTD entity is ever expanded, no external
 * reference resolved: fast-xml-parser never opens files or URLs), namespace prefixes dropped (`rsm:`, `ram:`, `cbc:`
 * vary between senders), attributes kept with an `@` prefix, every value a string.
 */
const parser = new XMLParser({
  processEntities: false,
  htmlEntities: false,
  removeNSPrefix: true,
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  textNodeName: '#text',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  maxNestedTags: MAX_XML_DEPTH,
  tagValueProcessor: (_name: string, value: string) => decodeReferences(value),
  attributeValueProcessor: (_name: string, value: string) => decodeReferences(value),
});

/** A DOCTYPE or entity declaration: e-invoices (CII, UBL) never carry one; it is how entity bombs and XXE arrive. */
const DECLARATION = /<!\s*(DOCTYPE|ENTITY)\b/i;

/** XML bytes → text: UTF-8 (the syntaxes' encoding), byte-order mark dropped. */
export function xmlText(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes).replace(/^\uFEFF/, '');
}

/**
 * Parses untrusted XML into plain objects, or throws a coded ExtractionError: `corrupt_file` for a DOCTYPE / entity
 * declaration (refused before parsing, so no expansion or external reference can happen) or XML that is not
 * well-formed, `file_too_large` beyond MAX_EINVOICE_XML_BYTES.
 */
export function parseXmlSafely(text: string): Record<string, unknown> {
  if (text.length > MAX_EINVOICE_XML_BYTES)
    throw new ExtractionError('file_too_large', `the XML is larger than ${MAX_EINVOICE_XML_BYTES} bytes, the e-invoice reader's limit`);
  if (DECLARATION.test(text))
    throw new ExtractionError(
      'corrupt_file',
      'the XML declares a DOCTYPE or entities; e-invoices (CII, UBL) carry none, and such XML is refused unread',
    );
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new ExtractionError('corrupt_file', `the XML is not well-formed: ${valid.err.msg} (line ${valid.err.line})`);
  try {
    return parser.parse(text) as Record<string, unknown>;
  } catch (e) {
    throw new ExtractionError('corrupt_file', `the XML could not be read: ${(e as Error).message}`);
  }
}
