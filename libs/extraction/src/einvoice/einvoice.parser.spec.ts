import { describe, expect, it } from '@jest/globals';
import { billionLaughsXml, externalEntityXml, INVENTED_INVOICE, inventedCii, inventedUbl } from '@docket/testing';
import { ExtractionError } from '../engine.types.js';
import { einvoiceOfAttachments, parseEInvoice } from './einvoice.parser.js';

const bytes = (s: string) => new TextEncoder().encode(s);
function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return e instanceof ExtractionError ? e.code : `not coded: ${String(e)}`;
  }
  return undefined;
}

/** The header every syntax must give for INVENTED_INVOICE. */
const HEADER = {
  invoice_number: 'RE-2031-0457',
  invoice_date: '2031-03-14',
  due_date: '2031-04-13',
  type_code: '380',
  currency: 'EUR',
  seller_name: 'Quillfeather Werkstatt GmbH',
  seller_vat_id: 'DE298765431',
  seller_address: 'Lindenhof 12, 04109 Leipzig, DE',
  buyer_name: 'Brackenridge Tools AG',
  buyer_vat_id: 'DE187654329',
  buyer_address: 'Am Kanal 7, 20457 Hamburg, DE',
  order_reference: 'PO-88213',
  line_total: 1100,
  net_amount: 1100,
  tax_amount: 209,
  total_amount: 1309,
  amount_due: 1309,
  iban: 'DE40430609670000571234',
  bic: 'BYLADEM1001',
  payment_terms: 'Payable within 30 days',
};
const LINES = [
  { description: 'Oak drafting table', item_id: 'QF-100', quantity: 2, unit: 'C62', unit_price: 400, amount: 800, tax_rate: 19 },
  { description: 'Brass lamp arm', item_id: 'QF-220', quantity: 4, unit: 'C62', unit_price: 75, amount: 300, tax_rate: 19 },
];

describe('e-invoice XML → EN 16931 concepts', () => {
  it('maps CII (Factur-X / ZUGFeRD 2 / XRechnung CII) header and line items', () => {
    const inv = parseEInvoice(bytes(inventedCii(INVENTED_INVOICE)));
    expect(inv.syntax).toBe('CII');
    expect(inv.profile).toBe('urn:example:docket:invented-profile');
    expect(inv.header).toEqual(HEADER);
    expect(inv.lines).toEqual(LINES);
  });

  it('maps UBL (XRechnung UBL) header and line items', () => {
    const inv = parseEInvoice(bytes(inventedUbl(INVENTED_INVOICE)));
    expect(inv.syntax).toBe('UBL');
    expect(inv.header).toEqual({ ...HEADER, buyer_reference: '04011000-12345-67' });
    expect(inv.lines).toEqual(LINES);
  });

  it('maps a UBL CreditNote (credited quantities, type 381)', () => {
    const inv = parseEInvoice(bytes(inventedUbl({ ...INVENTED_INVOICE, typeCode: '381', number: 'GS-77' })));
    expect(inv.header).toMatchObject({ invoice_number: 'GS-77', type_code: '381', total_amount: 1309 });
    expect(inv.lines.map((l) => l.quantity)).toEqual([2, 4]);
  });

  it('maps the CII containers of the first ZUGFeRD release (CrossIndustryDocument)', () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryDocument xmlns:rsm="urn:example:zf-one" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:12" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:15">
<rsm:HeaderExchangedDocument><ram:ID>Z1-5</ram:ID><ram:TypeCode>380</ram:TypeCode><ram:IssueDateTime><udt:DateTimeString format="102">20300102</udt:DateTimeString></ram:IssueDateTime></rsm:HeaderExchangedDocument>
<rsm:SpecifiedSupplyChainTradeTransaction>
<ram:ApplicableSupplyChainTradeAgreement><ram:SellerTradeParty><ram:Name>Fennick &amp; Sohn</ram:Name></ram:SellerTradeParty></ram:ApplicableSupplyChainTradeAgreement>
<ram:ApplicableSupplyChainTradeSettlement><ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>
<ram:SpecifiedTradeSettlementMonetarySummation><ram:GrandTotalAmount>59.50</ram:GrandTotalAmount></ram:SpecifiedTradeSettlementMonetarySummation></ram:ApplicableSupplyChainTradeSettlement>
<ram:IncludedSupplyChainTradeLineItem><ram:SpecifiedSupplyChainTradeDelivery><ram:BilledQuantity unitCode="H87">5</ram:BilledQuantity></ram:SpecifiedSupplyChainTradeDelivery>
<ram:SpecifiedTradeProduct><ram:Name>Hinge</ram:Name></ram:SpecifiedTradeProduct></ram:IncludedSupplyChainTradeLineItem>
</rsm:SpecifiedSupplyChainTradeTransaction></rsm:CrossIndustryDocument>`;
    const inv = parseEInvoice(bytes(xml));
    expect(inv.header).toEqual({
      invoice_number: 'Z1-5',
      invoice_date: '2030-01-02',
      type_code: '380',
      currency: 'EUR',
      seller_name: 'Fennick & Sohn',
      total_amount: 59.5,
    });
    expect(inv.lines).toEqual([{ description: 'Hinge', quantity: 5, unit: 'H87' }]);
  });

  it('refuses entity expansion ("billion laughs") and external entities unread, with corrupt_file', () => {
    const t0 = performance.now();
    expect(codeOf(() => parseEInvoice(bytes(billionLaughsXml())))).toBe('corrupt_file');
    expect(codeOf(() => parseEInvoice(bytes(externalEntityXml())))).toBe('corrupt_file');
    expect(performance.now() - t0).toBeLessThan(1000);
  });

  it('leaves an undeclared entity reference as text (nothing is expanded without a DTD either)', () => {
    const xml = inventedUbl(INVENTED_INVOICE).replace('<cbc:ID>RE-2031-0457</cbc:ID>', '<cbc:ID>Q&amp;Z&#x41;&ext;</cbc:ID>');
    const inv = parseEInvoice(bytes(xml));
    expect(inv.header.invoice_number).toBe('Q&ZA&ext;');
  });

  it('fails XML that is not well-formed with corrupt_file, nested too deep likewise, and other XML with unsupported_type', () => {
    expect(codeOf(() => parseEInvoice(bytes('<Invoice><ID>1</Invoice>')))).toBe('corrupt_file');
    expect(codeOf(() => parseEInvoice(bytes(`${'<a>'.repeat(5000)}${'</a>'.repeat(5000)}`)))).toBe('corrupt_file');
    expect(codeOf(() => parseEInvoice(bytes('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>')))).toBe('unsupported_type');
  });

  it('finds the invoice among a PDF\u2019s attachments: standard names first, non-invoices and hostile XML skipped', () => {
    const files = [
      { filename: 'notes.xml', content: bytes('<?xml version="1.0"?><notes/>') },
      { filename: 'bomb.xml', content: bytes(billionLaughsXml()) },
      { filename: 'factur-x.xml', content: bytes(inventedCii(INVENTED_INVOICE)) },
      { filename: 'picture.png', content: bytes('not xml') },
    ];
    expect(einvoiceOfAttachments(files)?.header.invoice_number).toBe('RE-2031-0457');
    expect(einvoiceOfAttachments(files.filter((f) => f.filename !== 'factur-x.xml'))).toBeUndefined();
  });
});
