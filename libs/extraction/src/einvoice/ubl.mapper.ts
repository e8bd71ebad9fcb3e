import type { EInvoice } from './einvoice.types.js';
import { addressLine, all, allAt, at, attrOf, decimal, defined, isoDate, num, str, textOf, type XmlNode } from './xml.path.js';

/**
 * OASIS UBL 2.1 `Invoice` / `CreditNote` (XRechnung UBL, Peppol BIS Billing 3.0) → the EN 16931 concepts.
 */

function partyName(party: XmlNode): string | undefined {
  return str(party, 'PartyLegalEntity/RegistrationName') ?? str(party, 'PartyName/Name');
}

/** The party's tax scheme registration whose scheme is VAT (BT-31/BT-48), or the other one (BT-32, tax number). */
function partyTax(party: XmlNode, vat: boolean): string | undefined {
  const scheme = all(at(party, 'PartyTaxScheme')).find((t) => /^vat$/i.test(str(t, 'TaxScheme/ID') ?? '') === vat);
  return scheme ? str(scheme, 'CompanyID') : undefined;
}

function postalAddress(party: XmlNode): string | undefined {
  const a = at(party, 'PostalAddress');
  if (!a) return undefined;
  return addressLine([
    [str(a, 'StreetName')],
    [str(a, 'AdditionalStreetName')],
    [str(a, 'PostalZone'), str(a, 'CityName')],
    [str(a, 'Country/IdentificationCode')],
  ]);
}

/** The tax total in the document's currency (a second TaxTotal may give it in the tax currency). */
function taxTotal(root: XmlNode, currency: string | undefined): number | undefined {
  const amounts = all(at(root, 'TaxTotal')).map((t) => at(t, 'TaxAmount'));
  const own = amounts.find((a) => attrOf(a, 'currencyID') === currency) ?? amounts[0];
  return decimal(textOf(own));
}

function lines(root: XmlNode, credit: boolean): EInvoice['lines'] {
  return allAt(root, credit ? 'CreditNoteLine' : 'InvoiceLine').map((l) => {
    const quantity = at(l, credit ? 'CreditedQuantity' : 'InvoicedQuantity');
    return defined({
      description: str(l, 'Item/Name') ?? str(l, 'Item/Description'),
      item_id: str(l, 'Item/SellersItemIdentification/ID'),
      quantity: decimal(textOf(quantity)),
      unit: attrOf(quantity, 'unitCode'),
      unit_price: num(l, 'Price/PriceAmount'),
      amount: num(l, 'LineExtensionAmount'),
      tax_rate: num(l, 'Item/ClassifiedTaxCategory/Percent'),
    });
  });
}

function header(root: XmlNode, credit: boolean): EInvoice['header'] {
  const seller = at(root, 'AccountingSupplierParty/Party');
  const buyer = at(root, 'AccountingCustomerParty/Party');
  const totals = at(root, 'LegalMonetaryTotal');
  const means = at(root, 'PaymentMeans');
  const currency = str(root, 'DocumentCurrencyCode');
  return defined({
    invoice_number: str(root, 'ID'),
    invoice_date: isoDate(str(root, 'IssueDate')),
    type_code: str(root, credit ? 'CreditNoteTypeCode' : 'InvoiceTypeCode'),
    due_date: isoDate(str(root, 'DueDate') ?? str(means, 'PaymentDueDate')),
    delivery_date: isoDate(str(root, 'Delivery/ActualDeliveryDate')),
    currency,
    seller_name: partyName(seller),
    seller_vat_id: partyTax(seller, true),
    seller_tax_number: partyTax(seller, false),
    seller_email: str(seller, 'Contact/ElectronicMail') ?? str(seller, 'EndpointID'),
    seller_address: postalAddress(seller),
    buyer_name: partyName(buyer),
    buyer_vat_id: partyTax(buyer, true),
    buyer_address: postalAddress(buyer),
    buyer_reference: str(root, 'BuyerReference'),
    order_reference: str(root, 'OrderReference/ID'),
    line_total: num(totals, 'LineExtensionAmount'),
    net_amount: num(totals, 'TaxExclusiveAmount'),
    tax_amount: taxTotal(root, currency),
    total_amount: num(totals, 'TaxInclusiveAmount'),
    prepaid_amount: num(totals, 'PrepaidAmount'),
    amount_due: num(totals, 'PayableAmount'),
    iban: str(means, 'PayeeFinancialAccount/ID')?.replace(/\s+/g, ''),
    bic: str(means, 'PayeeFinancialAccount/FinancialInstitutionBranch/ID'),
    payment_terms: str(root, 'PaymentTerms/Note'),
  });
}

/** A UBL `Invoice` or `CreditNote` root element → the invoice's concepts. */
export function fromUbl(root: XmlNode, kind: 'Invoice' | 'CreditNote'): EInvoice {
  const credit = kind === 'CreditNote';
  return { syntax: 'UBL', profile: str(root, 'CustomizationID'), header: header(root, credit), lines: lines(root, credit) };
}
