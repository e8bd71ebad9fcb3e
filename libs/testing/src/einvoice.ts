import PDFDocument from 'pdfkit';

/**
 * Invented e-invoices for tests: one invoice model written as UN/CEFACT CII (as hybrid PDFs and XRechnung CII carry it),
 * as OASIS UBL 2.1 (XRechnung UBL), and as a hybrid Factur-X PDF (a printed page plus the CII XML as an embedded
 * file). Every name and number here is made up.
 */
export interface InventedParty {
  name: string;
  vatId?: string;
  street: string;
  postcode: string;
  city: string;
  country: string;
}

export interface InventedLine {
  id: string;
  name: string;
  quantity: number;
  unit: string;
  price: number;
  /** VAT rate in percent. */
  rate: number;
}

export interface InventedInvoice {
  number: string;
  /** ISO dates. */
  issueDate: string;
  dueDate?: string;
  /** 380 invoice, 381 credit note. */
  typeCode?: '380' | '381';
  currency: string;
  seller: InventedParty;
  buyer: InventedParty;
  lines: InventedLine[];
  iban?: string;
  bic?: string;
  orderRef?: string;
  terms?: string;
}

/** An invented invoice with two lines (19 % VAT): net 1,100.00, tax 209.00, total 1,309.00. */
export const INVENTED_INVOICE: InventedInvoice = {
  number: 'RE-2031-0457',
  issueDate: '2031-03-14',
  dueDate: '2031-04-13',
  currency: 'EUR',
  seller: {
    name: 'Quillfeather Werkstatt GmbH',
    vatId: 'DE298765431',
    street: 'Lindenhof 12',
    postcode: '04109',
    city: 'Leipzig',
    country: 'DE',
  },
  buyer: { name: 'Brackenridge Tools AG', vatId: 'DE187654329', street: 'Am Kanal 7', postcode: '20457', city: 'Hamburg', country: 'DE' },
  lines: [
    { id: 'QF-100', name: 'Oak drafting table', quantity: 2, unit: 'C62', price: 400, rate: 19 },
    { id: 'QF-220', name: 'Brass lamp arm', quantity: 4, unit: 'C62', price: 75, rate: 19 },
  ],
  iban: 'DE40430609670000571234',
  bic: 'BYLADEM1001',
  orderRef: 'PO-88213',
  terms: 'Payable within 30 days',
};

const money = (n: number) => n.toFixed(2);
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Line totals, net, tax and gross of an invented invoice. */
export function inventedTotals(inv: InventedInvoice): { lines: number[]; net: number; tax: number; total: number } {
  const lines = inv.lines.map((l) => Math.round(l.quantity * l.price * 100) / 100);
  const net = lines.reduce((a, b) => a + b, 0);
  const tax = Math.round(inv.lines.reduce((s, l, i) => s + (lines[i]! * l.rate) / 100, 0) * 100) / 100;
  return { lines, net, tax, total: Math.round((net + tax) * 100) / 100 };
}

function ciiParty(role: 'Seller' | 'Buyer', p: InventedParty): string {
  return `<ram:${role}TradeParty><ram:Name>${esc(p.name)}</ram:Name>
  <ram:PostalTradeAddress><ram:PostcodeCode>${p.postcode}</ram:PostcodeCode><ram:LineOne>${esc(p.street)}</ram:LineOne><ram:CityName>${esc(p.city)}</ram:CityName><ram:CountryID>${p.country}</ram:CountryID></ram:PostalTradeAddress>
  ${p.vatId ? `<ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">${p.vatId}</ram:ID></ram:SpecifiedTaxRegistration>` : ''}
</ram:${role}TradeParty>`;
}

const ciiDate = (iso: string) => `<udt:DateTimeString format="102">${iso.replace(/-/g, '')}</udt:DateTimeString>`;

/** The invoice as CII D16B, as the hybrid PDF standards embed it. */
export function inventedCii(inv: InventedInvoice): string {
  const t = inventedTotals(inv);
  const lines = inv.lines
    .map(
      (l, i) => `<ram:IncludedSupplyChainTradeLineItem>
  <ram:AssociatedDocumentLineDocument><ram:LineID>${i + 1}</ram:LineID></ram:AssociatedDocumentLineDocument>
  <ram:SpecifiedTradeProduct><ram:SellerAssignedID>${l.id}</ram:SellerAssignedID><ram:Name>${esc(l.name)}</ram:Name></ram:SpecifiedTradeProduct>
  <ram:SpecifiedLineTradeAgreement><ram:NetPriceProductTradePrice><ram:ChargeAmount>${money(l.price)}</ram:ChargeAmount></ram:NetPriceProductTradePrice></ram:SpecifiedLineTradeAgreement>
  <ram:SpecifiedLineTradeDelivery><ram:BilledQuantity unitCode="${l.unit}">${l.quantity}</ram:BilledQuantity></ram:SpecifiedLineTradeDelivery>
  <ram:SpecifiedLineTradeSettlement><ram:ApplicableTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>S</ram:CategoryCode><ram:RateApplicablePercent>${l.rate}</ram:RateApplicablePercent></ram:ApplicableTradeTax>
    <ram:SpecifiedTradeSettlementLineMonetarySummation><ram:LineTotalAmount>${money(t.lines[i]!)}</ram:LineTotalAmount></ram:SpecifiedTradeSettlementLineMonetarySummation></ram:SpecifiedLineTradeSettlement>
</ram:IncludedSupplyChainTradeLineItem>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100">
<rsm:ExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:example:docket:invented-profile</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter></rsm:ExchangedDocumentContext>
<rsm:ExchangedDocument><ram:ID>${esc(inv.number)}</ram:ID><ram:TypeCode>${inv.typeCode ?? '380'}</ram:TypeCode><ram:IssueDateTime>${ciiDate(inv.issueDate)}</ram:IssueDateTime></rsm:ExchangedDocument>
<rsm:SupplyChainTradeTransaction>
${lines}
<ram:ApplicableHeaderTradeAgreement>
  ${ciiParty('Seller', inv.seller)}
  ${ciiParty('Buyer', inv.buyer)}
  ${inv.orderRef ? `<ram:BuyerOrderReferencedDocument><ram:IssuerAssignedID>${esc(inv.orderRef)}</ram:IssuerAssignedID></ram:BuyerOrderReferencedDocument>` : ''}
</ram:ApplicableHeaderTradeAgreement>
<ram:ApplicableHeaderTradeDelivery/>
<ram:ApplicableHeaderTradeSettlement>
  <ram:InvoiceCurrencyCode>${inv.currency}</ram:InvoiceCurrencyCode>
  ${inv.iban ? `<ram:SpecifiedTradeSettlementPaymentMeans><ram:TypeCode>58</ram:TypeCode><ram:PayeePartyCreditorFinancialAccount><ram:IBANID>${inv.iban}</ram:IBANID></ram:PayeePartyCreditorFinancialAccount>${inv.bic ? `<ram:PayeeSpecifiedCreditorFinancialInstitution><ram:BICID>${inv.bic}</ram:BICID></ram:PayeeSpecifiedCreditorFinancialInstitution>` : ''}</ram:SpecifiedTradeSettlementPaymentMeans>` : ''}
  <ram:ApplicableTradeTax><ram:CalculatedAmount>${money(t.tax)}</ram:CalculatedAmount><ram:TypeCode>VAT</ram:TypeCode><ram:BasisAmount>${money(t.net)}</ram:BasisAmount><ram:CategoryCode>S</ram:CategoryCode><ram:RateApplicablePercent>19</ram:RateApplicablePercent></ram:ApplicableTradeTax>
  <ram:SpecifiedTradePaymentTerms>${inv.terms ? `<ram:Description>${esc(inv.terms)}</ram:Description>` : ''}${inv.dueDate ? `<ram:DueDateDateTime>${ciiDate(inv.dueDate)}</ram:DueDateDateTime>` : ''}</ram:SpecifiedTradePaymentTerms>
  <ram:SpecifiedTradeSettlementHeaderMonetarySummation>
    <ram:LineTotalAmount>${money(t.net)}</ram:LineTotalAmount><ram:TaxBasisTotalAmount>${money(t.net)}</ram:TaxBasisTotalAmount>
    <ram:TaxTotalAmount currencyID="${inv.currency}">${money(t.tax)}</ram:TaxTotalAmount><ram:GrandTotalAmount>${money(t.total)}</ram:GrandTotalAmount>
    <ram:DuePayableAmount>${money(t.total)}</ram:DuePayableAmount>
  </ram:SpecifiedTradeSettlementHeaderMonetarySummation>
</ram:ApplicableHeaderTradeSettlement>
</rsm:SupplyChainTradeTransaction>
</rsm:CrossIndustryInvoice>
`;
}

function ublParty(role: 'AccountingSupplierParty' | 'AccountingCustomerParty', p: InventedParty): string {
  return `<cac:${role}><cac:Party>
  <cac:PostalAddress><cbc:StreetName>${esc(p.street)}</cbc:StreetName><cbc:CityName>${esc(p.city)}</cbc:CityName><cbc:PostalZone>${p.postcode}</cbc:PostalZone><cac:Country><cbc:IdentificationCode>${p.country}</cbc:IdentificationCode></cac:Country></cac:PostalAddress>
  ${p.vatId ? `<cac:PartyTaxScheme><cbc:CompanyID>${p.vatId}</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>` : ''}
  <cac:PartyLegalEntity><cbc:RegistrationName>${esc(p.name)}</cbc:RegistrationName></cac:PartyLegalEntity>
</cac:Party></cac:${role}>`;
}

/** The invoice as UBL 2.1 (`Invoice`, or `CreditNote` for type 381), as XRechnung UBL writes it. */
export function inventedUbl(inv: InventedInvoice): string {
  const t = inventedTotals(inv);
  const credit = inv.typeCode === '381';
  const root = credit ? 'CreditNote' : 'Invoice';
  const c = inv.currency;
  const lines = inv.lines
    .map(
      (l, i) => `<cac:${root}Line><cbc:ID>${i + 1}</cbc:ID>
  <cbc:${credit ? 'CreditedQuantity' : 'InvoicedQuantity'} unitCode="${l.unit}">${l.quantity}</cbc:${credit ? 'CreditedQuantity' : 'InvoicedQuantity'}>
  <cbc:LineExtensionAmount currencyID="${c}">${money(t.lines[i]!)}</cbc:LineExtensionAmount>
  <cac:Item><cbc:Name>${esc(l.name)}</cbc:Name><cac:SellersItemIdentification><cbc:ID>${l.id}</cbc:ID></cac:SellersItemIdentification>
    <cac:ClassifiedTaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>${l.rate}</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:ClassifiedTaxCategory></cac:Item>
  <cac:Price><cbc:PriceAmount currencyID="${c}">${money(l.price)}</cbc:PriceAmount></cac:Price>
</cac:${root}Line>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<${root} xmlns="urn:oasis:names:specification:ubl:schema:xsd:${root}-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
<cbc:CustomizationID>urn:example:docket:invented-profile</cbc:CustomizationID>
<cbc:ID>${esc(inv.number)}</cbc:ID>
<cbc:IssueDate>${inv.issueDate}</cbc:IssueDate>
${inv.dueDate && !credit ? `<cbc:DueDate>${inv.dueDate}</cbc:DueDate>` : ''}
<cbc:${root}TypeCode>${inv.typeCode ?? '380'}</cbc:${root}TypeCode>
<cbc:DocumentCurrencyCode>${c}</cbc:DocumentCurrencyCode>
<cbc:BuyerReference>04011000-12345-67</cbc:BuyerReference>
${inv.orderRef ? `<cac:OrderReference><cbc:ID>${esc(inv.orderRef)}</cbc:ID></cac:OrderReference>` : ''}
${ublParty('AccountingSupplierParty', inv.seller)}
${ublParty('AccountingCustomerParty', inv.buyer)}
${inv.iban ? `<cac:PaymentMeans><cbc:PaymentMeansCode>58</cbc:PaymentMeansCode><cac:PayeeFinancialAccount><cbc:ID>${inv.iban}</cbc:ID>${inv.bic ? `<cac:FinancialInstitutionBranch><cbc:ID>${inv.bic}</cbc:ID></cac:FinancialInstitutionBranch>` : ''}</cac:PayeeFinancialAccount></cac:PaymentMeans>` : ''}
${inv.terms ? `<cac:PaymentTerms><cbc:Note>${esc(inv.terms)}</cbc:Note></cac:PaymentTerms>` : ''}
<cac:TaxTotal><cbc:TaxAmount currencyID="${c}">${money(t.tax)}</cbc:TaxAmount></cac:TaxTotal>
<cac:LegalMonetaryTotal><cbc:LineExtensionAmount currencyID="${c}">${money(t.net)}</cbc:LineExtensionAmount><cbc:TaxExclusiveAmount currencyID="${c}">${money(t.net)}</cbc:TaxExclusiveAmount><cbc:TaxInclusiveAmount currencyID="${c}">${money(t.total)}</cbc:TaxInclusiveAmount><cbc:PayableAmount currencyID="${c}">${money(t.total)}</cbc:PayableAmount></cac:LegalMonetaryTotal>
${lines}
</${root}>
`;
}

/** Amounts as a German invoice prints them: `1.309,00`. */
const printed = (n: number) => n.toLocaleString('de-DE', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const dmy = (iso: string) => iso.split('-').reverse().join('.');

export interface FacturXOptions {
  /** The gross total printed on the page (default: the invoice's own); another value makes page and XML disagree. */
  printedTotal?: number;
  /** The embedded XML (default: `inventedCii(inv)`). */
  xml?: string;
  /** The attachment's name (default `factur-x.xml`). */
  attachmentName?: string;
}

/** A hybrid Factur-X PDF: the invoice printed on an A4 page (German labels), its XML attached as an embedded file. */
export function inventedFacturX(inv: InventedInvoice, opts: FacturXOptions = {}): Promise<Buffer> {
  const t = inventedTotals(inv);
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4', margin: 50 });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.fontSize(10).text(`${inv.seller.name} · ${inv.seller.street} · ${inv.seller.postcode} ${inv.seller.city}`, 50, 50);
    doc.fontSize(11).text(inv.buyer.name, 50, 110).text(inv.buyer.street).text(`${inv.buyer.postcode} ${inv.buyer.city}`);
    doc.fontSize(18).text('Rechnung', 50, 200);
    doc.fontSize(10);
    const meta: [string, string][] = [
      ['Rechnungsnummer:', inv.number],
      ['Rechnungsdatum:', dmy(inv.issueDate)],
      ...(inv.dueDate ? ([['Fällig am:', dmy(inv.dueDate)]] as [string, string][]) : []),
    ];
    meta.forEach(([k, v], i) => doc.text(k, 50, 235 + i * 15).text(v, 180, 235 + i * 15));
    const y0 = 310;
    ['Pos.', 'Bezeichnung', 'Menge', 'Einzelpreis', 'Betrag'].forEach((h, i) => doc.text(h, [50, 90, 300, 370, 470][i]!, y0));
    inv.lines.forEach((l, i) => {
      const y = y0 + 20 + i * 16;
      [String(i + 1), l.name, String(l.quantity), printed(l.price), printed(t.lines[i]!)].forEach((v, k) =>
        doc.text(v, [50, 90, 300, 370, 470][k]!, y),
      );
    });
    const yt = y0 + 40 + inv.lines.length * 16;
    [
      ['Nettobetrag', printed(t.net)],
      ['USt. 19 %', printed(t.tax)],
      ['Gesamtbetrag', `${printed(opts.printedTotal ?? t.total)} ${inv.currency}`],
    ].forEach(([k, v], i) => doc.text(k!, 300, yt + i * 16).text(v!, 470, yt + i * 16));
    doc.text(`IBAN: ${inv.iban ?? ''}   BIC: ${inv.bic ?? ''}   USt-IdNr.: ${inv.seller.vatId ?? ''}`, 50, yt + 80);
    // (pdfkit writes the Factur-X AFRelationship too; its type definitions do not list the option.)
    const attachment = {
      name: opts.attachmentName ?? 'factur-x.xml',
      type: 'text/xml',
      relationship: 'Alternative',
      description: 'Factur-X invoice data',
    };
    doc.file(Buffer.from(opts.xml ?? inventedCii(inv), 'utf8'), attachment);
    doc.end();
  });
}

/** XML that tries an entity expansion ("billion laughs"): ten levels of ten references each. */
export function billionLaughsXml(): string {
  const ents = ['<!ENTITY lol0 "lol">'];
  for (let i = 1; i < 10; i++) ents.push(`<!ENTITY lol${i} "${`&lol${i - 1};`.repeat(10)}">`);
  return `<?xml version="1.0"?>\n<!DOCTYPE Invoice [\n${ents.join('\n')}\n]>\n<Invoice><ID>&lol9;</ID></Invoice>\n`;
}

/** XML with an external entity (XXE) naming a local file. */
export function externalEntityXml(): string {
  return `<?xml version="1.0"?>\n<!DOCTYPE Invoice [<!ENTITY secret SYSTEM "file:///etc/passwd">]>\n<Invoice><ID>&secret;</ID></Invoice>\n`;
}
