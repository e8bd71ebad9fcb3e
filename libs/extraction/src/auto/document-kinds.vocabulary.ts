/**
 * Words that tell a document's kind, in the engine's languages (en, de, fr, nl): data, not rules. `strong`
 * words name the kind (the document's title); `weak` ones are typical of it. Matched on whole words, case-folded.
 */
export interface KindVocabulary {
  strong: readonly string[];
  weak: readonly string[];
}

export const KIND_VOCABULARY: Readonly<Record<'invoice' | 'receipt' | 'form', KindVocabulary>> = {
  invoice: {
    strong: ['invoice', 'tax invoice', 'invoice number', 'invoice no', 'rechnung', 'rechnungsnummer', 'facture', 'numéro de facture', 'factuur', 'factuurnummer', 'credit note', 'gutschrift', 'avoir', 'creditnota'],
    weak: ['due date', 'bill to', 'payment terms', 'net amount', 'vat', 'iban', 'bic', 'fälligkeitsdatum', 'zahlungsziel', 'ust', 'mwst', 'échéance', 'tva', 'vervaldatum', 'btw'],
  },
  receipt: {
    strong: ['receipt', 'sales receipt', 'cash receipt', 'quittung', 'kassenbon', 'kassenbeleg', 'kaufbeleg', 'reçu', 'ticket de caisse', 'kassabon', 'kassaticket'],
    weak: ['cash', 'change', 'cashier', 'card', 'visa', 'mastercard', 'thank you', 'store', 'bar', 'rückgeld', 'kasse', 'espèces', 'monnaie', 'caisse', 'contant', 'wisselgeld', 'kassa', 'pin'],
  },
  form: {
    strong: ['form', 'application form', 'registration form', 'application', 'formular', 'antrag', 'anmeldung', 'formulaire', 'demande', 'aanvraag', 'aanvraagformulier'],
    weak: ['signature', 'signed', 'date of birth', 'please complete', 'unterschrift', 'geburtsdatum', 'date de naissance', 'veuillez', 'handtekening', 'geboortedatum', '☐', '☑', '☒'],
  },
};
