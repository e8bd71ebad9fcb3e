import { ExtractionError } from '../engine.types.js';
import { fromCii } from './cii.mapper.js';
import type { EInvoice } from './einvoice.types.js';
import { fromUbl } from './ubl.mapper.js';
import { MAX_EINVOICE_XML_BYTES, parseXmlSafely, xmlText } from './xml.safe.js';

/**
 * Reads an e-invoice (CII or UBL XML) into its concepts. Throws a coded ExtractionError: `corrupt_file` for hostile
 * or malformed XML (see parseXmlSafely), `unsupported_type` for well-formed XML that is not an invoice in either syntax.
 */
export function parseEInvoice(bytes: Uint8Array): EInvoice {
  if (bytes.byteLength > MAX_EINVOICE_XML_BYTES)
    throw new ExtractionError('file_too_large', `the XML is larger than ${MAX_EINVOICE_XML_BYTES} bytes, the e-invoice reader's limit`);
  const doc = parseXmlSafely(xmlText(bytes));
  if (doc.CrossIndustryInvoice) return fromCii(doc.CrossIndustryInvoice, 'd16b');
  if (doc.CrossIndustryDocument) return fromCii(doc.CrossIndustryDocument, 'zugferd1');
  if (doc.Invoice) return fromUbl(doc.Invoice, 'Invoice');
  if (doc.CreditNote) return fromUbl(doc.CreditNote, 'CreditNote');
  const root = Object.keys(doc).filter((k) => !k.startsWith('?') && !k.startsWith('#'));
  throw new ExtractionError(
    'unsupported_type',
    `the XML is not an e-invoice (root element ${root.join(', ') || 'none'}; read are UN/CEFACT CII CrossIndustryInvoice and UBL Invoice / CreditNote)`,
  );
}

/** An e-invoice read from XML, or undefined when the bytes are not one (a PDF's other attachments, hostile XML). */
export function tryParseEInvoice(bytes: Uint8Array): EInvoice | undefined {
  try {
    const inv = parseEInvoice(bytes);
    return Object.keys(inv.header).length ? inv : undefined;
  } catch {
    return undefined;
  }
}

/** The attachment names Factur-X, ZUGFeRD and XRechnung give their XML, preferred over any other XML attachment. */
const STANDARD_NAMES = /^(factur-x|zugferd-invoice|zugferd_invoice|xrechnung|order-x)\.xml$/i;

/**
 * The e-invoice among a PDF's embedded files: the standard names first, then any `.xml`. Files larger than the XML
 * limit and those that are not CII/UBL invoices are skipped.
 */
export function einvoiceOfAttachments(files: readonly { filename: string; content: Uint8Array }[]): EInvoice | undefined {
  const xml = files.filter((f) => /\.xml$/i.test(f.filename));
  xml.sort((a, b) => Number(STANDARD_NAMES.test(b.filename)) - Number(STANDARD_NAMES.test(a.filename)));
  for (const f of xml) {
    const inv = tryParseEInvoice(f.content);
    if (inv) return inv;
  }
  return undefined;
}
