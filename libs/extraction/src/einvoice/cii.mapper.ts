import type { EInvoice } from './einvoice.types.js';
import { addressLine, all, allAt, at, attrOf, decimal, defined, isoDate, num, str, textOf, type XmlNode } from './xml.path.js';

/**
 * UN/CEFACT Cross Industry Invoice (CII) → the EN 16931 concepts: the D16B schema of Factur-X, ZUGFeRD 2 and XRechnung
 * CII (`CrossIndustryInvoice`), and the first ZUGFeRD release's older dialect (`CrossIndustryDocument`), whose element names differ
 * only in the containers below.
 */
const PATHS = {
  d16b: {
    ctx: 'ExchangedDocumentContext',
    doc: 'ExchangedDocument',
    tx: 'SupplyChainTradeTransaction',
    agreement: 'ApplicableHeaderTradeAgreement',
    delivery: 'ApplicableHeaderTradeDelivery',
    settlement: 'ApplicableHeaderTradeSettlement',
    summation: 'SpecifiedTradeSettlementHeaderMonetarySummation',
    lineAgreement: 'SpecifiedLineTradeAgreement',
    lineDelivery: 'SpecifiedLineTradeDelivery',
    lineSettlement: 'SpecifiedLineTradeSettlement',
    lineSummation: 'SpecifiedTradeSettlementLineMonetarySummation',
  },
  zugferd1: {
    ctx: 'SpecifiedExchangedDocumentContext',
    doc: 'HeaderExchangedDocument',
    tx: 'SpecifiedSupplyChainTradeTransaction',
    agreement: 'ApplicableSupplyChainTradeAgreement',
    delivery: 'ApplicableSupplyChainTradeDelivery',
    settlement: 'ApplicableSupplyChainTradeSettlement',
    summation: 'SpecifiedTradeSettlementMonetarySummation',
    lineAgreement: 'SpecifiedSupplyChainTradeAgreement',
    lineDelivery: 'SpecifiedSupplyChainTradeDelivery',
    lineSettlement: 'SpecifiedSupplyChainTradeSettlement',
    lineSummation: 'SpecifiedTradeSettlementMonetarySummation',
  },
};
type Paths = (typeof PATHS)['d16b'];

/** A party's tax registration of one scheme: `VA` (VAT id, BT-31/BT-48) or `FC` (tax number, BT-32). */
function taxRegistration(party: XmlNode, scheme: 'VA' | 'FC'): string | undefined {
  const reg = all(at(party, 'SpecifiedTaxRegistration'))
    .map((r) => at(r, 'ID'))
    .find((id) => attrOf(id, 'schemeID') === scheme);
  return textOf(reg);
}

function postalAddress(party: XmlNode): string | undefined {
  const a = at(party, 'PostalTradeAddress');
  if (!a) return undefined;
  return addressLine([[str(a, 'LineOne')], [str(a, 'LineTwo')], [str(a, 'PostcodeCode'), str(a, 'CityName')], [str(a, 'CountryID')]]);
}

/** The tax total in the invoice's currency (a second TaxTotalAmount may give it in the accounting currency). */
function taxTotal(summation: XmlNode, currency: string | undefined): number | undefined {
  const totals = all(at(summation, 'TaxTotalAmount'));
  const own = totals.find((t) => attrOf(t, 'currencyID') === currency) ?? totals[0];
  return decimal(textOf(own));
}

function lines(tx: XmlNode, p: Paths): EInvoice['lines'] {
  return allAt(tx, 'IncludedSupplyChainTradeLineItem').map((li) => {
    const quantity = at(li, `${p.lineDelivery}/BilledQuantity`);
    return defined({
      description: str(li, 'SpecifiedTradeProduct/Name') ?? str(li, 'SpecifiedTradeProduct/Description'),
      item_id: str(li, 'SpecifiedTradeProduct/SellerAssignedID'),
      quantity: decimal(textOf(quantity)),
      unit: attrOf(quantity, 'unitCode'),
      unit_price: num(li, `${p.lineAgreement}/NetPriceProductTradePrice/ChargeAmount`),
      amount: num(li, `${p.lineSettlement}/${p.lineSummation}/LineTotalAmount`),
      tax_rate:
        num(li, `${p.lineSettlement}/ApplicableTradeTax/RateApplicablePercent`) ??
        num(li, `${p.lineSettlement}/ApplicableTradeTax/ApplicablePercent`),
    });
  });
}

function header(root: XmlNode, p: Paths): EInvoice['header'] {
  const tx = at(root, p.tx);
  const agreement = at(tx, p.agreement);
  const settlement = at(tx, p.settlement);
  const summation = at(settlement, p.summation);
  const seller = at(agreement, 'SellerTradeParty');
  const buyer = at(agreement, 'BuyerTradeParty');
  const means = at(settlement, 'SpecifiedTradeSettlementPaymentMeans');
  const currency = str(settlement, 'InvoiceCurrencyCode');
  return defined({
    invoice_number: str(root, `${p.doc}/ID`),
    invoice_date: isoDate(str(root, `${p.doc}/IssueDateTime/DateTimeString`)),
    type_code: str(root, `${p.doc}/TypeCode`),
    due_date: isoDate(str(settlement, 'SpecifiedTradePaymentTerms/DueDateDateTime/DateTimeString')),
    delivery_date: isoDate(str(tx, `${p.delivery}/ActualDeliverySupplyChainEvent/OccurrenceDateTime/DateTimeString`)),
    currency,
    seller_name: str(seller, 'Name'),
    seller_vat_id: taxRegistration(seller, 'VA'),
    seller_tax_number: taxRegistration(seller, 'FC'),
    seller_email: str(seller, 'URIUniversalCommunication/URIID') ?? str(seller, 'DefinedTradeContact/EmailURIUniversalCommunication/URIID'),
    seller_address: postalAddress(seller),
    buyer_name: str(buyer, 'Name'),
    buyer_vat_id: taxRegistration(buyer, 'VA'),
    buyer_address: postalAddress(buyer),
    buyer_reference: str(agreement, 'BuyerReference'),
    order_reference: str(agreement, 'BuyerOrderReferencedDocument/IssuerAssignedID'),
    line_total: num(summation, 'LineTotalAmount'),
    net_amount: num(summation, 'TaxBasisTotalAmount'),
    tax_amount: taxTotal(summation, currency),
    total_amount: num(summation, 'GrandTotalAmount'),
    prepaid_amount: num(summation, 'TotalPrepaidAmount'),
    amount_due: num(summation, 'DuePayableAmount'),
    iban: str(means, 'PayeePartyCreditorFinancialAccount/IBANID')?.replace(/\s+/g, ''),
    bic: str(means, 'PayeeSpecifiedCreditorFinancialInstitution/BICID'),
    payment_terms: str(settlement, 'SpecifiedTradePaymentTerms/Description'),
  });
}

/** A CII root element (`CrossIndustryInvoice`, or ZUGFeRD 1's `CrossIndustryDocument`) → the invoice's concepts. */
export function fromCii(root: XmlNode, dialect: 'd16b' | 'zugferd1'): EInvoice {
  const p = PATHS[dialect];
  return {
    syntax: 'CII',
    profile: str(root, `${p.ctx}/GuidelineSpecifiedDocumentContextParameter/ID`),
    header: header(root, p),
    lines: lines(at(root, p.tx), p),
  };
}
