#!/usr/bin/env node
// A generalisation probe for invoices typeset by pdflatex, as freelancers, academics and small firms write them:
// INVENTED invoices (German, English, French, Dutch; every name, street, number and amount drawn by a seeded generator
// from the invented lists below) set as a KOMA-Script `scrlttr2` letter (reference line, address window, a bank footer)
// or as an `article` / `scrartcl` page (letterhead, parties side by side or stacked, a label/value block), with item
// tables in `tabularx`, `xltabular`, `longtable` (over pages, the header repeated) or `tabular` with a `p{}` column;
// booktabs, grid, single rules or none, zebra rows; right-aligned `r` columns or `dcolumn` decimal alignment;
// optional position, article-code, date, unit, VAT-rate and discount columns; wrapped descriptions and note sub-lines
// (in the cell or as a row of their own); one or two VAT rates; a discount or a deposit in the totals; totals as rows
// of the item table or as a right-aligned block; bank details in the footer or in the text. TeX's text layer is what
// differs from every other probe: ligatures (ﬁ, ﬀ, ﬄ), glyphs placed one by one with kerns, Computer Modern, Latin
// Modern, Times-, Helvetica-, Charter- and Palatino-like faces, `\,` thin spaces in figures (`1\,234.50`), a euro sign
// from `eurosym` (its glyph reads as "e") or `\texteuro` (some faces give it as "C"), `\today`-style long dates,
// math-mode minus signs, `\hfill` alignment. Written before any of its documents was read by the engine, and changed
// only for realism, never to suit it.
//   apt-get install texlive-latex-base texlive-latex-recommended texlive-fonts-recommended texlive-latex-extra poppler-utils
//   node tools/eval/synth-latex-invoices.mjs --out /tmp/synth-latex-invoices [--count 40] [--seed 5]
//   PROBE_LANGUAGES=nl node tools/eval/synth-latex-invoices.mjs …   languages drawn (default de,en,fr,nl)
//   npm run eval -- --corpus /tmp/synth-latex-invoices
// Expected values follow invoices-wide's conventions (as synth-office-invoices.mjs): a line's description is its title
// and its note sub-line; quantity, unit price and amount only where the line prints them (a lump sum prints only its
// amount); amount is the line's net amount as printed; net_amount is the tax base (after a discount); tax_amount is
// the sum of the rates' tax; total_amount is the total before a deposit is deducted; due_date only when a date is
// printed for it (payment terms in days give none); the currency is expected wherever a symbol or code is drawn, even
// when the text layer spells it oddly (a reader sees €); every other value only when its printed form is in the text
// poppler's pdftotext reads (an unreadable accent under Computer Modern's OT1 encoding drops a name).
//
// Babel's German, French and Dutch are not part of the packages above (texlive-lang-*), so those documents set their
// dates and captions by hand, as many templates do; English documents use babel's `\today` (british or american).
// Words are never hyphenated (where TeX breaks a word is not predictable here).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliOptions, datasetWriter, randomSource } from './synth.common.mjs';
import { printed } from './templates/render.mjs';
import { INVOICE_SCHEMA } from './invoices-wide.sources.mjs';

const { out, count, seed } = cliOptions({ out: '/tmp/synth-latex-invoices', count: 40, seed: 5 });
const SYLLABLES = [
  'kor',
  'vel',
  'mi',
  'sten',
  'ba',
  'lun',
  'tes',
  'ra',
  'quin',
  'dol',
  'fe',
  'zar',
  'ni',
  'gol',
  'pra',
  'hem',
  'wi',
  'tos',
];
const MEANINGFUL = /^(kormi|bara|rara|mini|tesla|nite|dolmi|golf|praxis)$/i;
const { rand, pick, chance, int, word, digits, letters } = randomSource(seed, SYLLABLES, MEANINGFUL);
const LANGUAGES = (process.env.PROBE_LANGUAGES ?? 'de,en,fr,nl').split(',');

const round2 = (x) => Math.round((x + Number.EPSILON) * 100) / 100;
const fill = (s, vars) => s.replace(/\{(\w+)\}/g, (_, k) => vars[k]);
/** Text for TeX: its special characters escaped (`°` set as a superscript o where the font has no degree sign). */
const esc = (s, ot1 = false) => lab(String(s).replace(/([&%$#_{}])/g, '\\$1'), ot1);
/** A label of the language packs (TeX source already): `°` as a superscript o in a face without the sign (OT1). */
const lab = (t, ot1 = false) => (ot1 ? t.replace(/°/g, '\\textsuperscript{o}') : t);

// ---------------------------------------------------------------------------------------------- words of the languages
// (Printed words are TeX source: `\\%`, `\\#`, `~` as written in a template; data is escaped where it is set.)

const MONTHS = {
  de: ['Januar', 'Februar', 'März', 'April', 'Mai', 'Juni', 'Juli', 'August', 'September', 'Oktober', 'November', 'Dezember'],
  en: ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'],
  fr: ['janvier', 'février', 'mars', 'avril', 'mai', 'juin', 'juillet', 'août', 'septembre', 'octobre', 'novembre', 'décembre'],
  nl: ['januari', 'februari', 'maart', 'april', 'mei', 'juni', 'juli', 'augustus', 'september', 'oktober', 'november', 'december'],
};

const WORDS = {
  de: {
    trades: ['Grafikdesign', 'Übersetzungen', 'Softwareentwicklung', 'Fotografie', 'Lektorat', 'IT-Beratung', 'Webdesign'],
    firmWords: ['Design', 'Software', 'Medien', 'Consulting', 'Technik', 'Druck'],
    forms: ['GmbH', 'UG (haftungsbeschränkt)', 'GbR', 'e.K.', 'GmbH & Co. KG'],
    street: (w, n) => `${w}${pick(['straße', 'weg', 'allee', 'ring', 'gasse'])} ${n}`,
    zip: () => String(int(10000, 99999)),
    citySuffix: ['feld', 'burg', 'tal', 'hausen', 'stadt'],
    contact: (n) => `${pick(['z. Hd. Frau', 'z. Hd. Herrn', 'Frau', 'Herrn'])} ${n}`,
    items: [
      'Grafikdesign Flyer',
      'Konfiguration Mailserver',
      'Effizienzanalyse',
      'Office-Schulung',
      'Profilfotos',
      'Softwareentwicklung',
      'Lektorat Fachartikel',
      'Übersetzung Handbuch',
      'Beratung vor Ort',
      'Offsetdruck Visitenkarten',
      'Webhosting',
      'Zertifikatsverwaltung',
      'Reisekosten',
      'Workshop',
      'Wartung Serveranlage',
      'Texterstellung',
      'Logo-Entwurf',
      'Druckdateien',
    ],
    tails: [
      'einschließlich zweier Korrekturschleifen und Abstimmung mit dem Team',
      'für das Projekt {w} laut Angebot und Absprache',
      'mit Auswertung der Ergebnisse und Dokumentation',
      'inklusive Einrichtung der Zugänge für alle Mitarbeiter',
    ],
    notes: ['inkl. Anfahrt', 'laut Stundenzettel', 'pro angefangene Stunde', 'Lieferung frei Haus', 'gemäß Angebot', 'Pauschale'],
    units: { hours: ['Std.', 'h'], pieces: ['Stk.', 'St.'], days: ['Tag', 'PT'], lump: ['Pausch.', 'psch.'] },
    title: ['Rechnung', 'RECHNUNG', 'Rechnung Nr.~{no}'],
    info: {
      number: ['Rechnungsnummer', 'Rechnungs-Nr.', 'Rechnung Nr.'],
      date: ['Rechnungsdatum', 'Datum', 'Ausstellungsdatum'],
      due: ['Fällig am', 'Zahlbar bis', 'Fälligkeit'],
      customer: ['Kundennummer', 'Kunden-Nr.', 'Ihre Kundennummer'],
      vat: ['USt-IdNr.', 'USt.-ID', 'Umsatzsteuer-ID'],
      taxno: 'Steuernummer',
      period: ['Leistungszeitraum', 'Leistungsdatum'],
      order: ['Ihre Bestellung', 'Projekt', 'Auftragsnummer'],
    },
    refCaptions: { invoice: 'Rechnungsnummer', customer: 'Kundennummer', date: 'Datum', myref: 'Unser Zeichen' },
    billTo: ['Rechnungsempfänger', 'Rechnung an', 'An'],
    from: ['Rechnungssteller', 'Von'],
    cols: {
      pos: ['Pos.', 'Nr.'],
      code: ['Art.-Nr.', 'Artikel'],
      date: ['Datum'],
      desc: ['Beschreibung', 'Bezeichnung', 'Leistung', 'Leistungsbeschreibung'],
      qty: ['Menge', 'Anzahl'],
      hours: ['Stunden', 'Std.', 'Aufwand (h)'],
      unit: ['Einheit', 'ME'],
      price: ['Einzelpreis', 'E-Preis', 'Preis'],
      rate: ['Stundensatz', 'Satz'],
      vat: ['USt.', 'MwSt.'],
      disc: ['Rabatt'],
      amount: ['Betrag', 'Gesamt', 'Gesamtpreis', 'Summe'],
    },
    subtotal: 'Zwischensumme',
    discount: ['abzgl. {p}~\\% Rabatt', 'Rabatt {p}~\\%', 'Nachlass ({p}~\\%)'],
    net: ['Nettobetrag', 'Summe netto', 'Netto', 'Gesamt netto'],
    tax: ['zzgl. {r}~\\% USt.', 'USt. {r}~\\%', 'MwSt. {r}~\\%', '{r}~\\% Umsatzsteuer', 'Umsatzsteuer {r}~\\% auf {base}'],
    total: ['Gesamtbetrag', 'Rechnungsbetrag', 'Gesamtsumme', 'Endbetrag', 'Gesamt brutto'],
    deposit: ['abzgl. Anzahlung vom {date}', 'abzgl. geleistete Anzahlung'],
    balance: ['Noch zu zahlen', 'Restbetrag', 'Zahlbetrag'],
    opening: ['Sehr geehrte Damen und Herren,', 'Guten Tag,'],
    intro: [
      'für die erbrachten Leistungen erlaube ich mir, Folgendes in Rechnung zu stellen:',
      'wir berechnen Ihnen wie folgt:',
      'vielen Dank für Ihren Auftrag. Ich berechne Ihnen:',
    ],
    closing: ['Mit freundlichen Grüßen', 'Viele Grüße', 'Beste Grüße'],
    dueText: [
      'Bitte überweisen Sie den Rechnungsbetrag bis zum {due} auf das unten angegebene Konto.',
      'Zahlbar bis {due} ohne Abzug.',
      'Der Betrag ist bis zum {due} fällig.',
    ],
    terms: ['Zahlbar innerhalb von {days} Tagen ohne Abzug.', 'Zahlungsziel: {days} Tage netto.'],
    thanks: ['Vielen Dank für Ihren Auftrag!', 'Vielen Dank für die gute Zusammenarbeit.'],
    rateText: 'Abgerechnet wird zum Stundensatz von {rate}.',
    bank: 'Bankverbindung',
    holder: 'Kontoinhaber',
    page: 'Seite {p} von {n}',
    continued: 'Fortsetzung auf der nächsten Seite',
    phone: 'Tel.',
    email: 'E-Mail',
    register: (w) => `Amtsgericht ${w}, HRB ${int(1000, 99999)}`,
  },
  en: {
    trades: ['Translation Services', 'Design Studio', 'Consulting', 'Photography', 'Software Development', 'Editorial Services'],
    firmWords: ['Design', 'Software', 'Media', 'Consulting', 'Engineering', 'Print'],
    forms: ['Ltd', 'Ltd.', 'LLP', 'Limited'],
    street: (w, n) => `${n} ${w} ${pick(['Road', 'Street', 'Lane', 'Close', 'Avenue'])}`,
    zip: () => `${letters(2)}${int(1, 20)} ${int(1, 9)}${letters(2)}`,
    citySuffix: ['ford', 'bury', 'ton', 'wick', 'field'],
    contact: (n) => `${pick(['Attn:', 'Attn.', 'FAO'])} ${n}`,
    items: [
      'Office fit-out survey',
      'Graphic design of flyers',
      'Efficiency audit',
      'Configuration of mail server',
      'Profile photography',
      'Software development',
      'Proofreading of articles',
      'Translation of manual',
      'On-site consultancy',
      'Offset printing of business cards',
      'Web hosting',
      'Certificate management',
      'Travel expenses',
      'Workshop',
      'Server maintenance',
      'Copywriting',
      'Logo design',
      'Artwork files',
    ],
    tails: [
      'including two rounds of revisions and coordination with your team',
      'for the {w} project as quoted and agreed',
      'with analysis of the results and documentation',
      'including set-up of accounts for all staff',
    ],
    notes: ['incl. travel', 'as per timesheet', 'per hour or part thereof', 'delivered free of charge', 'as quoted', 'fixed fee'],
    units: { hours: ['hrs', 'h'], pieces: ['pcs', 'ea.'], days: ['day', 'days'], lump: ['item', 'fixed'] },
    title: ['Invoice', 'INVOICE', 'Invoice {no}', 'Tax Invoice'],
    info: {
      number: ['Invoice No.', 'Invoice number', 'Invoice \\#', 'Number'],
      date: ['Invoice date', 'Date', 'Date of issue'],
      due: ['Due date', 'Payment due', 'Due'],
      customer: ['Customer No.', 'Client ID', 'Account no.'],
      vat: ['VAT Reg. No.', 'VAT number', 'VAT No.'],
      taxno: 'Company No.',
      period: ['Service period', 'Period'],
      order: ['PO number', 'Project', 'Your ref.'],
    },
    refCaptions: { invoice: 'Invoice no.', customer: 'Customer no.', date: 'Date', myref: 'Our ref.' },
    billTo: ['Bill to', 'Invoice to', 'Billed to', 'Client'],
    from: ['From', 'Supplier'],
    cols: {
      pos: ['\\#', 'No.'],
      code: ['Code', 'SKU', 'Ref.'],
      date: ['Date'],
      desc: ['Description', 'Item', 'Service'],
      qty: ['Qty', 'Quantity'],
      hours: ['Hours', 'Hrs'],
      unit: ['Unit'],
      price: ['Unit price', 'Price', 'Unit cost'],
      rate: ['Rate', 'Hourly rate'],
      vat: ['VAT', 'Tax'],
      disc: ['Disc.', 'Discount'],
      amount: ['Amount', 'Total', 'Line total'],
    },
    subtotal: 'Subtotal',
    discount: ['Discount {p}\\%', 'less {p}\\% discount', 'Discount ({p}\\%)'],
    net: ['Net total', 'Net amount', 'Total excl. VAT', 'Total net'],
    tax: ['VAT {r}\\%', 'VAT @ {r}\\%', 'VAT ({r}\\%)', 'VAT at {r}\\% on {base}'],
    salesTax: ['Sales tax ({r}\\%)', 'Sales Tax {r}\\%'],
    total: ['Total', 'Total due', 'Amount due', 'Invoice total', 'Total (incl. VAT)'],
    deposit: ['Less deposit received {date}', 'Less deposit paid'],
    balance: ['Balance due', 'Balance', 'Amount payable'],
    opening: ['Dear Sir or Madam,', 'Hello,'],
    intro: ['Please find below my invoice for the work carried out.', 'We invoice you as follows:', 'Thank you for your order.'],
    closing: ['Kind regards', 'Yours faithfully', 'Best regards'],
    dueText: ['Please pay by {due}.', 'Payment is due by {due}.', 'Please remit payment by {due} to the account below.'],
    terms: ['Payment terms: {days} days net.', 'Payable within {days} days of the invoice date.'],
    thanks: ['Thank you for your business.', 'Many thanks for your custom.'],
    rateText: 'Work is charged at an hourly rate of {rate}.',
    bank: 'Bank details',
    holder: 'Account name',
    page: 'Page {p} of {n}',
    continued: 'Continued on next page',
    phone: 'Tel.',
    email: 'Email',
    register: (w) => `Registered in ${w}, company no. ${digits(8)}`,
  },
  fr: {
    trades: ['Traduction', 'Graphisme', 'Conseil informatique', 'Photographie', 'Développement web', 'Rédaction'],
    firmWords: ['Conseil', 'Logiciels', 'Médias', 'Études', 'Ingénierie', 'Impression'],
    forms: ['SARL', 'SAS', 'EURL', 'SA'],
    street: (w, n) => `${n}${chance(0.2) ? ' bis' : ''}, ${pick(['rue', 'avenue', 'boulevard', 'chemin', 'place'])} ${w}`,
    zip: () => String(int(10000, 95999)),
    citySuffix: ['ville', 'court', '-sur-Mer', 'mont', 'lac'],
    contact: (n) => `${pick(["À l'attention de M.", "À l'attention de Mme", 'Attn. M.'])} ${n}`,
    items: [
      'Conception graphique affiche',
      'Configuration serveur de messagerie',
      "Audit d'efficacité",
      'Formation bureautique',
      'Photos de profil',
      'Développement logiciel',
      'Relecture article',
      'Traduction du manuel',
      'Conseil sur site',
      'Impression offset cartes de visite',
      'Hébergement web',
      'Gestion des certificats',
      'Frais de déplacement',
      'Atelier',
      'Maintenance serveur',
      'Rédaction de contenus',
      'Création de logo',
      'Fichiers pour impression',
    ],
    tails: [
      'comprenant deux séries de corrections et la coordination avec votre équipe',
      'pour le projet {w} selon devis accepté',
      'avec analyse des résultats et documentation',
      'y compris la création des comptes pour tout le personnel',
    ],
    notes: ['déplacement inclus', 'selon relevé des heures', 'par heure entamée', 'livraison offerte', 'selon devis', 'forfait'],
    units: { hours: ['h', 'heure'], pieces: ['pce', 'u.'], days: ['jour', 'j'], lump: ['forfait', 'fft'] },
    title: ['Facture', 'FACTURE', 'Facture n°~{no}'],
    info: {
      number: ['N° de facture', 'Facture n°', 'Numéro'],
      date: ['Date de facture', 'Date', "Date d'émission"],
      due: ["Date d'échéance", 'Échéance', 'À payer avant le'],
      customer: ['N° client', 'Code client', 'Réf. client'],
      vat: ['N° TVA intracom.', 'TVA intracommunautaire', 'N° TVA'],
      taxno: 'SIRET',
      period: ['Période', 'Date de prestation'],
      order: ['Bon de commande', 'Projet', 'Votre réf.'],
    },
    refCaptions: { invoice: 'N° de facture', customer: 'N° client', date: 'Date', myref: 'Notre réf.' },
    billTo: ['Facturé à', 'Client', 'Destinataire'],
    from: ['Émetteur', 'De'],
    cols: {
      pos: ['N°', '\\#'],
      code: ['Réf.', 'Code'],
      date: ['Date'],
      desc: ['Désignation', 'Description', 'Prestation'],
      qty: ['Qté', 'Quantité'],
      hours: ['Heures', 'Nb heures'],
      unit: ['Unité'],
      price: ['Prix unitaire HT', 'P.U. HT', 'Prix unit.'],
      rate: ['Taux horaire', 'Tarif'],
      vat: ['TVA'],
      disc: ['Remise'],
      amount: ['Montant HT', 'Total HT', 'Montant'],
    },
    subtotal: 'Sous-total',
    discount: ['Remise {p}~\\%', 'Remise de {p}~\\%'],
    net: ['Total HT', 'Montant HT', 'Sous-total HT'],
    tax: ['TVA {r}~\\%', 'TVA ({r}~\\%)', 'TVA à {r}~\\%', 'TVA {r}~\\% sur {base}'],
    total: ['Total TTC', 'Net à payer', 'Montant TTC'],
    deposit: ['Acompte versé le {date}', 'Acompte déjà versé'],
    balance: ['Reste à payer', 'Solde dû'],
    opening: ['Madame, Monsieur,'],
    intro: [
      'Veuillez trouver ci-dessous le détail de ma facture.',
      'Nous vous prions de trouver ci-après notre facture.',
      'Suite à votre commande, voici le détail des prestations réalisées.',
    ],
    closing: ['Cordialement', 'Bien cordialement', 'Veuillez agréer, Madame, Monsieur, nos salutations distinguées.'],
    dueText: ['Date limite de paiement\\,: {due}.', 'À régler avant le {due}.', 'Merci de régler cette facture avant le {due}.'],
    terms: ['Paiement à {days} jours.', 'Conditions de paiement\\,: {days} jours net.'],
    thanks: ['Merci de votre confiance.', 'Nous vous remercions de votre confiance.'],
    rateText: 'Les heures sont facturées au taux horaire de {rate}.',
    legal:
      'En cas de retard de paiement, une indemnité forfaitaire de {fee} pour frais de recouvrement sera exigée (art. L441-10 du Code de commerce). Pas d’escompte pour paiement anticipé.',
    bank: 'Coordonnées bancaires',
    holder: 'Titulaire',
    page: 'Page {p} sur {n}',
    continued: 'Suite page suivante',
    phone: 'Tél.',
    email: 'Courriel',
    register: (w) => `RCS ${w} B ${digits(3)} ${digits(3)} ${digits(3)}`,
  },
  nl: {
    trades: ['Vertalingen', 'Ontwerp', 'Advies', 'Fotografie', 'Softwareontwikkeling', 'Tekstschrijven'],
    firmWords: ['Ontwerp', 'Software', 'Media', 'Advies', 'Techniek', 'Drukwerk'],
    forms: ['B.V.', 'V.O.F.', 'BV'],
    street: (w, n) => `${w}${pick(['straat', 'laan', 'weg', 'gracht', 'plein'])} ${n}`,
    zip: () => `${int(1000, 9999)} ${letters(2)}`,
    citySuffix: ['dam', 'hoven', 'veld', 'berg', 'wijk'],
    contact: (n) => `${pick(['t.a.v.', 'T.a.v.', 'Ter attentie van'])} ${n}`,
    items: [
      'Grafisch ontwerp flyer',
      'Configuratie mailserver',
      'Efficiëntieanalyse',
      'Officetraining',
      'Profielfoto’s',
      'Softwareontwikkeling',
      'Redactie artikel',
      'Vertaling handleiding',
      'Advies op locatie',
      'Offsetdruk visitekaartjes',
      'Webhosting',
      'Certificaatbeheer',
      'Reiskosten',
      'Workshop',
      'Onderhoud server',
      'Tekstschrijven',
      'Logo-ontwerp',
      'Drukbestanden',
    ],
    tails: [
      'inclusief twee correctierondes en afstemming met uw team',
      'voor het project {w} volgens offerte en afspraak',
      'met analyse van de resultaten en documentatie',
      'inclusief het aanmaken van accounts voor alle medewerkers',
    ],
    notes: ['incl. reiskosten', 'volgens urenstaat', 'per begonnen uur', 'franco geleverd', 'volgens offerte', 'vaste prijs'],
    units: { hours: ['uur', 'u'], pieces: ['st.', 'stuks'], days: ['dag', 'dagen'], lump: ['post', 'vast'] },
    title: ['Factuur', 'FACTUUR', 'Factuur {no}'],
    info: {
      number: ['Factuurnummer', 'Factuurnr.', 'Nummer'],
      date: ['Factuurdatum', 'Datum'],
      due: ['Vervaldatum', 'Uiterste betaaldatum', 'Te betalen vóór'],
      customer: ['Klantnummer', 'Debiteurnummer', 'Klantnr.'],
      vat: ['Btw-nummer', 'BTW-nr.', 'Btw-id'],
      taxno: 'KvK-nummer',
      period: ['Periode', 'Leveringsdatum'],
      order: ['Uw referentie', 'Project', 'Ordernummer'],
    },
    refCaptions: { invoice: 'Factuurnummer', customer: 'Klantnummer', date: 'Datum', myref: 'Ons kenmerk' },
    billTo: ['Factuur aan', 'Aan', 'Klant'],
    from: ['Van', 'Leverancier'],
    cols: {
      pos: ['Nr.', '\\#'],
      code: ['Art.nr.', 'Code'],
      date: ['Datum'],
      desc: ['Omschrijving', 'Beschrijving', 'Dienst'],
      qty: ['Aantal'],
      hours: ['Uren', 'Aantal uren'],
      unit: ['Eenheid'],
      price: ['Prijs', 'Stukprijs', 'Prijs per stuk'],
      rate: ['Uurtarief', 'Tarief'],
      vat: ['Btw', 'BTW'],
      disc: ['Korting'],
      amount: ['Bedrag', 'Totaal', 'Subtotaal'],
    },
    subtotal: 'Subtotaal',
    discount: ['Korting {p}\\%', '{p}\\% korting'],
    net: ['Totaal excl. btw', 'Subtotaal excl. btw', 'Netto bedrag'],
    tax: ['Btw {r}\\%', 'BTW {r}\\%', '{r}\\% btw', 'Btw {r}\\% over {base}'],
    total: ['Totaal', 'Totaal incl. btw', 'Te betalen', 'Totaalbedrag'],
    deposit: ['Reeds betaald (voorschot {date})', 'Af: voorschot'],
    balance: ['Nog te betalen', 'Openstaand bedrag'],
    opening: ['Geachte heer, mevrouw,', 'Beste klant,'],
    intro: [
      'Hierbij ontvangt u de factuur voor de geleverde diensten.',
      'Voor de uitgevoerde werkzaamheden breng ik u het volgende in rekening:',
      'Hartelijk dank voor uw opdracht.',
    ],
    closing: ['Met vriendelijke groet', 'Hoogachtend', 'Met hartelijke groet'],
    dueText: [
      'Gelieve het bedrag vóór {due} over te maken.',
      'Te betalen vóór {due}.',
      'Wij verzoeken u het bedrag uiterlijk {due} over te maken.',
    ],
    terms: ['Betaling binnen {days} dagen.', 'Betalingstermijn: {days} dagen.'],
    thanks: ['Bedankt voor uw opdracht.', 'Dank voor de prettige samenwerking.'],
    rateText: 'De uren worden gefactureerd tegen een uurtarief van {rate}.',
    bank: 'Bankgegevens',
    holder: 't.n.v.',
    page: 'Pagina {p} van {n}',
    continued: 'Vervolg op volgende pagina',
    phone: 'Tel.',
    email: 'E-mail',
    register: () => `KvK ${digits(8)}`,
  },
};

/** Where the seller is: VAT rates, the tax id's and the IBAN's forms (of that country's kind, invented digits). */
const COUNTRIES = {
  DE: { rates: [19, 7], vat: () => `DE${digits(9)}`, bban: () => digits(18) },
  AT: { rates: [20, 10], vat: () => `ATU${digits(8)}`, bban: () => digits(16) },
  GB: { rates: [20, 5], vat: () => `GB${digits(9)}`, bban: () => `${letters(4)}${digits(14)}` },
  IE: { rates: [23, 13.5], vat: () => `IE${digits(7)}${letters(1)}`, bban: () => `${letters(4)}${digits(14)}` },
  US: { rates: [8.875, 6.25, 7], vat: () => '', bban: () => '' },
  FR: { rates: [20, 10, 5.5], vat: () => `FR${digits(2)}${digits(9)}`, bban: () => digits(23) },
  NL: { rates: [21, 9], vat: () => `NL${digits(9)}B${digits(2)}`, bban: () => `${letters(4)}${digits(10)}` },
};
const COUNTRY_OF = { de: ['DE', 'DE', 'DE', 'AT'], en: ['GB', 'GB', 'IE', 'US'], fr: ['FR'], nl: ['NL'] };
const CURRENCY_OF = { DE: 'EUR', AT: 'EUR', GB: 'GBP', IE: 'EUR', US: 'USD', FR: 'EUR', NL: 'EUR' };

/** An IBAN with valid check digits (mod 97) around an invented account. */
function iban(country) {
  const bban = COUNTRIES[country].bban();
  const numeric = `${bban}${country}00`.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let rem = 0;
  for (const d of numeric) rem = (rem * 10 + Number(d)) % 97;
  return `${country}${String(98 - rem).padStart(2, '0')}${bban}`;
}

// ------------------------------------------------------------------------------------------------------ invented data

const person = () => `${word(2)} ${word(int(2, 3))}`;
function address(L) {
  return { street: L.street(word(), int(1, 140)), zip: L.zip(), city: `${word(2)}${pick(L.citySuffix)}` };
}
const handle = (name) =>
  name
    .toLowerCase()
    .normalize('NFD')
    .replace(/[^a-z]+/g, '')
    .slice(0, 14);

function seller(L, country) {
  const freelancer = chance(0.5);
  const owner = person();
  const name = freelancer ? owner : `${word()} ${pick(L.firmWords)} ${pick(L.forms)}`;
  return {
    name,
    freelancer,
    trade: freelancer && chance(0.6) ? pick(L.trades) : '',
    owner,
    ...address(L),
    phone: `+${int(31, 49)} ${int(10, 999)} ${digits(int(6, 8))}`,
    email: `${freelancer ? handle(owner.split(' ')[0]) : 'info'}@${handle(name)}.example`,
    web: `www.${handle(name)}.example`,
    vat: COUNTRIES[country].vat(),
  };
}
function buyer(L) {
  const firm = chance(0.7);
  const name = firm ? `${word()} ${chance(0.4) ? `${word(2)} ` : ''}${pick(L.forms)}` : person();
  return {
    name,
    contact: firm && chance(0.35) ? L.contact(person()) : '',
    ...address(L),
    number: `${pick(['K', 'C', ''])}${digits(int(4, 6))}`,
  };
}

/** Items: titles (some long enough to wrap), note sub-lines, quantities by kind, prices, one of the tax rates each. */
function items(L, rates, kind, perItemDiscount) {
  const n = chance(0.5) ? int(1, 6) : chance(0.6) ? int(7, 15) : int(16, 30);
  const hourly = pick([45, 60, 65, 75, 80, 85, 90, 95, 110, 120]);
  return Array.from({ length: n }, () => {
    const unitKind = kind === 'hours' ? (chance(0.85) ? 'hours' : 'lump') : pick(['pieces', 'pieces', 'hours', 'days', 'lump']);
    const base = pick(L.items);
    const title = chance(0.25) ? `${base} ${fill(pick(L.tails), { w: word() })}` : chance(0.4) ? `${base} ${word()}` : base;
    const qty = unitKind === 'hours' ? int(1, 48) / (chance(0.3) ? 4 : 2) : unitKind === 'lump' ? 1 : int(1, unitKind === 'days' ? 10 : 40);
    const price =
      unitKind === 'hours' ? hourly : unitKind === 'days' ? hourly * 8 : round2(10 ** (0.7 + rand() * (unitKind === 'lump' ? 3 : 2.3)));
    const discountPct = perItemDiscount && chance(0.35) ? pick([5, 10, 15, 20]) : 0;
    const gross = round2(qty * price);
    return {
      title,
      note: chance(0.3) ? pick(L.notes) : '',
      unitKind,
      unit: pick(L.units[unitKind]),
      qty,
      price,
      discountPct,
      amount: round2(gross - round2((gross * discountPct) / 100)),
      rate: rates[rates.length > 1 && chance(0.35) ? 1 : 0],
      code: `${letters(2)}-${digits(int(3, 5))}`,
      day: int(1, 28),
    };
  });
}

const isoOf = (d) => d.toISOString().slice(0, 10);

function invent(lang) {
  const L = WORDS[lang];
  const country = pick(COUNTRY_OF[lang]);
  const C = COUNTRIES[country];
  const twoRates = country !== 'US' && chance(0.35);
  const rates = twoRates ? C.rates.slice(0, 2) : [country === 'US' ? pick(C.rates) : C.rates[0]];
  const kind = chance(0.4) ? 'hours' : 'goods';
  const discountKind = chance(0.15) ? 'document' : chance(0.15) ? 'items' : 'none';
  const its = items(L, rates, kind, discountKind === 'items');
  const gross = round2(its.reduce((a, it) => a + it.amount, 0));
  const discountPct = discountKind === 'document' ? pick([3, 5, 10, 15]) : 0;
  const taxes = rates
    .map((rate) => {
      const sum = round2(its.filter((it) => it.rate === rate).reduce((a, it) => a + it.amount, 0));
      const base = round2(sum - round2((sum * discountPct) / 100));
      return { rate, base, amount: round2((base * rate) / 100) };
    })
    .filter((t) => t.base > 0);
  const net = round2(taxes.reduce((a, t) => a + t.base, 0));
  const tax = round2(taxes.reduce((a, t) => a + t.amount, 0));
  const total = round2(net + tax);
  const issued = new Date(Date.UTC(int(2019, 2026), int(0, 11), int(1, 28)));
  const days = pick([7, 10, 14, 14, 30, 30]);
  const due = new Date(issued.getTime() + days * 86400000);
  const year = issued.getUTCFullYear();
  const number = pick([
    () => `${year}-${String(int(1, 250)).padStart(3, '0')}`,
    () => `RE-${year}-${String(int(1, 999)).padStart(4, '0')}`,
    () => `${String(year).slice(2)}${String(int(1, 99)).padStart(2, '0')}${String(int(1, 99)).padStart(2, '0')}`,
    () => `INV-${digits(5)}`,
    () => `F${year}${String(int(1, 999)).padStart(3, '0')}`,
    () => `${int(100, 999)}/${year}`,
  ])();
  const deposit = chance(0.08) ? round2(Math.min(total * 0.5, pick([100, 250, 500, 1000]))) : 0;
  return {
    lang,
    country,
    currency: CURRENCY_OF[country],
    seller: seller(L, country),
    buyer: buyer(L),
    items: its,
    kind,
    discountKind,
    discountPct,
    gross,
    discount: round2(gross - net),
    taxes,
    net,
    tax,
    total,
    deposit,
    issued,
    due,
    days,
    number,
    iban: country === 'US' ? '' : iban(country),
    bic: `${letters(4)}${country === 'US' ? 'US' : country}${letters(1)}${digits(1)}${chance(0.5) ? 'XXX' : ''}`,
    bankName: `${word()} ${pick(['Bank', 'Sparkasse', 'Bank AG', 'Banque', 'Bank N.V.'])}`,
    taxNo: {
      DE: () => `${digits(2)}/${digits(3)}/${digits(5)}`,
      AT: () => `${digits(2)}-${digits(3)}/${digits(4)}`,
      GB: () => digits(8),
      IE: () => digits(6),
      US: () => `${digits(2)}-${digits(7)}`,
      FR: () => `${digits(3)} ${digits(3)} ${digits(3)} ${digits(5)}`,
      NL: () => digits(8),
    }[country](),
  };
}

// --------------------------------------------------------------------------------------------------- printed forms

/** A date as the document prints it: `{ tex, read }` (read: what the text layer should give). */
function dateForm(inv, style, d, { today = false } = {}) {
  const day = d.getUTCDate();
  const m = d.getUTCMonth();
  const y = d.getUTCFullYear();
  const p2 = (n) => String(n).padStart(2, '0');
  const plain = (s) => ({ tex: esc(s), read: s });
  if (style.kind === 'iso') return plain(`${y}-${p2(m + 1)}-${p2(day)}`);
  if (style.kind === 'short') {
    if (inv.lang === 'de') return plain(`${p2(day)}.${p2(m + 1)}.${y}`);
    if (inv.lang === 'nl') return plain(`${p2(day)}-${p2(m + 1)}-${y}`);
    if (inv.country === 'US') return plain(`${p2(m + 1)}/${p2(day)}/${y}`);
    return plain(`${p2(day)}/${p2(m + 1)}/${y}`);
  }
  const month = MONTHS[inv.lang][m];
  if (inv.lang === 'de') return plain(`${day}. ${month} ${y}`);
  if (inv.lang === 'nl') return plain(`${day} ${month} ${y}`);
  if (inv.lang === 'fr')
    return day === 1 ? { tex: `1\\textsuperscript{er}~${month} ${y}`, read: `1er ${month} ${y}` } : plain(`${day} ${month} ${y}`);
  // English: babel's \today for the invoice date (british "12th March 2024", american "March 12, 2024").
  const ord = day % 10 === 1 && day !== 11 ? 'st' : day % 10 === 2 && day !== 12 ? 'nd' : day % 10 === 3 && day !== 13 ? 'rd' : 'th';
  const read = style.babel === 'american' ? `${month} ${day}, ${y}` : `${day}${ord} ${month} ${y}`;
  return { tex: today ? '\\today' : esc(read), read };
}

/** A figure in the document's number style: `{ tex, read }`; `math`: set inside a dcolumn cell (math mode). */
function figure(inv, x, s, { digits: dp = 2, math = false } = {}) {
  const neg = x < 0;
  const [int_, frac] = Math.abs(x).toFixed(dp).split('.');
  const group = s.group === 'none' ? '' : s.group === 'thin' ? '\\,' : inv.lang === 'en' ? ',' : inv.lang === 'fr' ? '\\,' : '.';
  const groupRead = group === '\\,' ? ' ' : group;
  const grouped = (g) => int_.replace(/\B(?=(\d{3})+(?!\d))/g, g);
  const dec = inv.lang === 'en' ? '.' : ',';
  const body = `${grouped(math && group === ',' ? '{,}' : group)}${frac ? `${dec}${frac}` : ''}`;
  const read = `${grouped(groupRead)}${frac ? `${dec}${frac}` : ''}`;
  if (!neg) return { tex: body, read };
  if (math) return { tex: `-${body}`, read: `−${read}` };
  return s.minus === 'math' ? { tex: `$-$${body}`, read: `−${read}` } : { tex: `-${body}`, read: `-${read}` };
}

/** A quantity: integers bare, fractions with their decimals (or always two decimals). */
function quantityForm(inv, q, s) {
  const whole = Number.isInteger(q);
  return figure(inv, q, s, { digits: whole && !s.qtyFixed ? 0 : s.qtyFixed ? 2 : q * 4 === Math.round(q * 4) && (q * 2) % 1 ? 2 : 1 });
}

/** A rate as printed: `19`, `5,5`, `13.5`, `8.875`. */
const rateForm = (inv, r) => {
  const t = String(r);
  return inv.lang === 'en' ? t : t.replace('.', ',');
};

/** The currency sign or code as TeX sets it. */
function currencyTex(inv, s) {
  if (s.curCode) return inv.currency;
  if (inv.currency === 'EUR') return s.euro;
  if (inv.currency === 'GBP') return s.ot1 ? 'GBP' : pick(['\\pounds{}', '£']);
  return '\\$';
}

/** Money: a figure with its currency, before or after (or the bare figure where the style prints none). */
function money(inv, x, s, withCurrency = true) {
  const f = figure(inv, x, s);
  if (!withCurrency) return f;
  const c = s.currency;
  if (s.curBefore) {
    // (A sign goes before the currency: "-€500.00", "- EUR 12,00".)
    const sign = x < 0 ? f.tex.slice(0, f.tex.indexOf(figure(inv, -x, s).tex)) : '';
    return { tex: `${sign}${c}${s.curCode || inv.lang !== 'en' ? '~' : ''}${f.tex.slice(sign.length)}`, read: f.read };
  }
  return { tex: `${f.tex}~${c}`, read: f.read };
}

// ------------------------------------------------------------------------------------------------------ the document

const FONTS = [
  { name: 'lmodern', tex: '\\usepackage[T1]{fontenc}\n\\usepackage{lmodern}' },
  { name: 'lmodern', tex: '\\usepackage[T1]{fontenc}\n\\usepackage{lmodern}' },
  { name: 'cm', tex: '', ot1: true },
  { name: 'times', tex: '\\usepackage[T1]{fontenc}\n\\usepackage{mathptmx}' },
  { name: 'helvet', tex: '\\usepackage[T1]{fontenc}\n\\usepackage[scaled]{helvet}\n\\renewcommand{\\familydefault}{\\sfdefault}' },
  { name: 'heros', tex: '\\usepackage[T1]{fontenc}\n\\usepackage{tgheros}\n\\renewcommand{\\familydefault}{\\sfdefault}' },
  { name: 'charter', tex: '\\usepackage[T1]{fontenc}\n\\usepackage{charter}' },
  { name: 'palatino', tex: '\\usepackage[T1]{fontenc}\n\\usepackage{mathpazo}' },
  { name: 'termes', tex: '\\usepackage[T1]{fontenc}\n\\usepackage{tgtermes}' },
];

/** The printing choices of one invoice. */
function styleOf(inv) {
  const font = pick(FONTS);
  const layout = pick(['letter', 'letter', 'article', 'article', 'scrartcl']);
  const many = inv.items.length > 12;
  const env = many ? pick(['longtable', 'xltabular']) : pick(['tabularx', 'tabularx', 'tabular', 'longtable', 'xltabular']);
  const numbers = chance(0.25) ? 'dcolumn' : 'r';
  const s = {
    font,
    ot1: !!font.ot1,
    layout,
    size: pick([10, 10, 11, 11, 12]),
    babel: inv.lang === 'en' ? (inv.country === 'US' ? 'american' : pick(['british', 'british', 'american'])) : '',
    date: { kind: pick(['long', 'long', 'short', 'short', 'iso']) },
    env,
    numbers,
    rules: pick(['booktabs', 'booktabs', 'grid', 'hline', 'none', 'zebra']),
    edge: chance(0.5),
    boldHead: chance(0.8),
    group: pick(['locale', 'locale', 'thin', 'none']),
    minus: pick(['hyphen', 'math']),
    qtyFixed: chance(0.2),
    pos: chance(0.45),
    code: inv.kind === 'goods' && chance(0.25),
    dateCol: inv.kind === 'hours' && chance(0.3),
    unitCol: inv.kind === 'goods' ? pick(['column', 'joined', 'none']) : pick(['none', 'joined', 'column']),
    rateColumn: inv.kind !== 'hours' || chance(0.6),
    noteStyle: pick(['newline', 'newline', 'row']),
    totals: pick(['inside', 'block', 'block', 'hfill', 'tabularx']),
    curCode: chance(0.2),
    curBefore: false,
    euro: pick(['\\euro{}', '\\texteuro{}', '€']),
    tableCurrency: chance(0.2),
    headerCurrency: chance(0.25),
    dueShown: pick(['info', 'text', 'text', 'terms', 'none']),
    footer: pick(['footer', 'footer', 'text']),
    ibanGrouped: chance(0.7),
    vatWhere: pick(['info', 'footer', 'footer', 'header']),
    vatShown: inv.country !== 'US' && chance(0.88),
    taxNoShown: chance(0.35) || inv.country === 'US',
    period: chance(0.3),
    order: chance(0.25),
    customer: chance(0.7),
    intro: chance(0.6),
    continued: chance(0.5),
    pageNumbers: chance(0.5),
    parties: pick(['side', 'side', 'stacked']),
    labelled: chance(0.6),
    info: pick(['colon', 'colon', 'table', 'row', 'lines']),
    infoRight: chance(0.5),
    head: pick(['left', 'right', 'center', 'titleRight']),
    title: pick(WORDS[inv.lang].title),
  };
  if (s.ot1 && s.euro !== '\\euro{}') s.euro = chance(0.5) ? '\\euro{}' : 'EUR';
  if (s.euro === 'EUR') s.curCode = true;
  s.curBefore = s.curCode ? chance(0.4) : inv.lang === 'en' || (inv.lang === 'nl' && chance(0.6));
  s.currency = currencyTex(inv, s);
  if (s.numbers === 'dcolumn') s.tableCurrency = false;
  if (s.date.kind === 'long' && inv.lang === 'en') s.date.babel = s.babel;
  s.vatCol = inv.taxes.length > 1 || (s.rules !== 'none' && chance(0.1));
  Object.assign(s, {
    pos: s.pos && pick(['plain', 'dot']),
    refline: chance(0.6),
    discountSign: inv.discountKind === 'document' && chance(0.3) ? 'unsigned' : 'signed',
    totalsGap: chance(0.5),
    holderLine: chance(0.3),
    footSize: pick(['scriptsize', 'footnotesize']),
    footRule: chance(0.4),
    headRule: chance(0.4),
    sep: pick(['{\\textperiodcentered}', '|', '--', '{\\textbullet}']),
    vatSpaced: chance(0.25) && /^(DE|GB)/.test(inv.seller.vat),
  });
  return s;
}

/** The item table's columns: key, heading, TeX alignment. */
function columnsOf(inv, s) {
  const C = WORDS[inv.lang].cols;
  const hours = inv.kind === 'hours';
  const numeric = s.numbers === 'dcolumn' ? `D{${inv.lang === 'en' ? '.' : ','}}{${inv.lang === 'en' ? '.' : ','}}{2}` : 'r';
  const cur = s.headerCurrency ? ` (${s.currency})` : '';
  const cols = [];
  if (s.pos) cols.push({ key: 'pos', head: pick(C.pos), align: pick(['r', 'l', 'c']) });
  if (s.dateCol) cols.push({ key: 'date', head: pick(C.date), align: 'l' });
  if (s.code) cols.push({ key: 'code', head: pick(C.code), align: 'l' });
  cols.push({ key: 'desc', head: pick(C.desc), align: 'desc' });
  cols.push({ key: 'qty', head: pick(hours ? C.hours : C.qty), align: 'r' });
  if (s.unitCol === 'column') cols.push({ key: 'unit', head: pick(C.unit), align: 'l' });
  if (!hours || s.rateColumn) cols.push({ key: 'price', head: `${pick(hours ? C.rate : C.price)}${cur}`, align: numeric, num: true });
  if (s.vatCol) cols.push({ key: 'vat', head: pick(C.vat), align: 'r' });
  if (inv.discountKind === 'items') cols.push({ key: 'disc', head: pick(C.disc), align: 'r' });
  cols.push({ key: 'amount', head: `${pick(C.amount)}${cur}`, align: numeric, num: true });
  return cols;
}

const WIDTHS = { pos: 0.9, date: 1.8, code: 1.9, qty: 1.5, unit: 1.3, price: 2.4, vat: 1.3, disc: 1.4, amount: 2.6 };

/** The item table (and the totals, when they are rows of it), with the expected rows. */
function itemTable(inv, s, totalsRows) {
  const L = WORDS[inv.lang];
  const cols = columnsOf(inv, s);
  const grid = s.rules === 'grid';
  const x = s.env === 'tabularx' || s.env === 'xltabular';
  const descWidth = Math.max(4, 15.2 - cols.filter((c) => c.key !== 'desc').reduce((a, c) => a + WIDTHS[c.key] + 0.4, 0));
  const alignOf = (c) =>
    c.align === 'desc'
      ? x
        ? '>{\\raggedright\\arraybackslash}X'
        : `>{\\raggedright\\arraybackslash}p{${descWidth.toFixed(1)}cm}`
      : c.align;
  const spec = grid ? `|${cols.map(alignOf).join('|')}|` : `${s.edge ? '@{}' : ''}${cols.map(alignOf).join('')}${s.edge ? '@{}' : ''}`;
  const n = cols.length;
  const mc = (k, a, body) => `\\multicolumn{1}{${grid && k === 0 ? '|' : ''}${a}${grid ? '|' : ''}}{${body}}`;
  const b = (t) => (s.boldHead ? `\\textbf{${t}}` : t);
  const head = cols
    .map((c, k) => (c.num && s.numbers === 'dcolumn' ? mc(k, 'r', b(lab(c.head, s.ot1))) : b(lab(c.head, s.ot1))))
    .join(' & ');
  const rule = { top: '', mid: '', bottom: '', row: '' };
  if (s.rules === 'booktabs') Object.assign(rule, { top: '\\toprule', mid: '\\midrule', bottom: '\\bottomrule' });
  if (s.rules === 'grid') Object.assign(rule, { top: '\\hline', mid: '\\hline', bottom: '', row: '\\hline' });
  if (s.rules === 'hline') Object.assign(rule, { top: '', mid: '\\hline', bottom: '\\hline' });
  if (s.rules === 'zebra') Object.assign(rule, { top: '\\hline', mid: '\\hline', bottom: '\\hline' });
  const long = s.env === 'longtable' || s.env === 'xltabular';
  const lines = [];
  if (s.rules === 'zebra') lines.push('\\rowcolors{2}{gray!12}{white}');
  const open = {
    tabularx: `\\begin{tabularx}{\\linewidth}{${spec}}`,
    xltabular: `\\begin{xltabular}{\\linewidth}{${spec}}`,
    longtable: `\\begin{longtable}{${spec}}`,
    tabular: `\\begin{tabular}{${spec}}`,
  }[s.env];
  lines.push(s.env === 'tabular' ? `\\noindent${open}` : open);
  lines.push(`${rule.top}\n${head} \\\\ ${rule.mid}`);
  if (long) {
    lines.push('\\endfirsthead');
    lines.push(`${rule.top}\n${head} \\\\ ${rule.mid}`, '\\endhead');
    if (s.continued) lines.push(`${rule.mid}\\multicolumn{${n}}{r}{\\footnotesize\\itshape ${lab(L.continued)}} \\\\`, '\\endfoot');
    lines.push('\\endlastfoot');
  }
  const want = [];
  inv.items.forEach((it, k) => {
    const lump = it.unitKind === 'lump' && inv.kind === 'hours';
    const q = quantityForm(inv, it.qty, s);
    const unitJoined = s.unitCol === 'joined' && !lump;
    const row = {};
    const title = esc(it.title, s.ot1);
    const note = it.note ? esc(it.note, s.ot1) : '';
    const cells = cols.map((c) => {
      switch (c.key) {
        case 'pos':
          return s.pos === 'dot' ? `${k + 1}.` : String(k + 1);
        case 'date':
          return dateForm(inv, { kind: 'short' }, new Date(Date.UTC(inv.issued.getUTCFullYear(), inv.issued.getUTCMonth(), it.day))).tex;
        case 'code':
          return esc(it.code);
        case 'desc':
          return note && s.noteStyle === 'newline' ? `${title}\\newline{\\footnotesize\\itshape ${note}}` : title;
        case 'qty':
          if (lump) return '';
          return unitJoined ? `${q.tex}~${esc(it.unit)}` : q.tex;
        case 'unit':
          return lump ? '' : esc(it.unit);
        case 'price': {
          if (lump) return '';
          return (s.tableCurrency ? money(inv, it.price, s) : figure(inv, it.price, s, { math: s.numbers === 'dcolumn' })).tex;
        }
        case 'vat':
          return `${rateForm(inv, it.rate)}${inv.lang === 'en' ? '' : '~'}\\%`;
        case 'disc':
          return it.discountPct ? `${it.discountPct}${inv.lang === 'en' ? '' : '~'}\\%` : '';
        case 'amount': {
          return (s.tableCurrency ? money(inv, it.amount, s) : figure(inv, it.amount, s, { math: s.numbers === 'dcolumn' })).tex;
        }
        default:
          throw new Error(`no cell for column ${c.key}`);
      }
    });
    lines.push(`${cells.join(' & ')} \\\\${rule.row}`);
    if (note && s.noteStyle === 'row') {
      const d = cols.findIndex((c) => c.key === 'desc');
      lines.push(`${cols.map((_, ci) => (ci === d ? `{\\footnotesize ${note}}` : '')).join(' & ')} \\\\${rule.row}`);
    }
    // (As TeX sets it: an ASCII apostrophe prints as a right quote, "d’efficacité".)
    const text = (it.note ? `${it.title} ${it.note}` : it.title).replace(/'/g, '’');
    row.description = [text, text.split(/\s+/)];
    if (!lump) row.quantity = [it.qty, q.read];
    if (!lump && cols.some((c) => c.key === 'price')) row.unit_price = [it.price, figure(inv, it.price, s).read];
    row.amount = [it.amount, figure(inv, it.amount, s).read];
    want.push(row);
  });
  if (totalsRows) {
    lines.push(rule.bottom || rule.mid || '');
    totalsRows.forEach((r, k) => {
      const last = k === totalsRows.length - 1;
      const value = s.numbers === 'dcolumn' ? mc(n - 1, 'r', r.value) : r.value;
      const label = `\\multicolumn{${n - 1}}{${grid ? '|' : ''}r${grid ? '|' : ''}}{${r.label}}`;
      if (r.strong && s.rules === 'booktabs') lines.push(`\\cmidrule{${Math.max(1, n - 2)}-${n}}`);
      lines.push(
        `${label} & ${value} \\\\${grid || (last && s.rules !== 'none') ? (s.rules === 'booktabs' ? '\\bottomrule' : '\\hline') : ''}`,
      );
    });
  } else if (rule.bottom) lines.push(rule.bottom);
  lines.push(`\\end{${s.env}}`);
  return { tex: lines.filter(Boolean).join('\n'), want };
}

/** The totals: subtotal and discount, net, one line per rate, total, a deposit and the balance. */
function totalsOf(inv, s) {
  const L = WORDS[inv.lang];
  const m = (x, strong = false) => {
    const f = money(inv, x, s);
    return { tex: strong ? `\\textbf{${f.tex}}` : f.tex, read: f.read };
  };
  const rows = [];
  const add = (label, x, strong = false) => {
    const f = m(x, strong);
    rows.push({ label: strong ? `\\textbf{${label}}` : label, value: f.tex, read: f.read, strong });
  };
  const reads = {};
  if (inv.discountKind === 'document') {
    add(lab(L.subtotal), inv.gross);
    add(fill(pick(L.discount), { p: inv.discountPct }), s.discountSign === 'unsigned' ? inv.discount : -inv.discount);
  }
  const netLabel = pick(L.net);
  add(lab(netLabel), inv.net);
  reads.net = rows.at(-1).read;
  const taxWords = inv.country === 'US' ? pick(L.salesTax) : pick(L.tax);
  reads.taxes = inv.taxes.map((t) => {
    const base = money(inv, t.base, s).tex;
    add(fill(taxWords, { r: rateForm(inv, t.rate), base }), t.amount);
    return rows.at(-1).read;
  });
  add(lab(pick(L.total)), inv.total, true);
  reads.total = rows.at(-1).read;
  if (inv.deposit) {
    add(fill(pick(L.deposit), { date: dateForm(inv, s.date, new Date(inv.issued.getTime() - 20 * 86400000)).tex }), -inv.deposit);
    add(lab(pick(L.balance)), round2(inv.total - inv.deposit), true);
  }
  return { rows, reads };
}

/** The totals set apart from the item table, right-aligned. */
function totalsBlock(rows, s) {
  const lead = s.totals === 'tabularx' ? ' & ' : ''; // (an empty first column takes the width)
  const body = rows.map((r) => `${lead}${r.label} & ${r.value} \\\\`);
  const strongAt = rows.findIndex((r) => r.strong);
  const rule = s.rules === 'booktabs' ? '\\midrule' : s.rules === 'none' ? '' : '\\hline';
  if (rule && strongAt > 0) body.splice(strongAt, 0, rule);
  if (s.totals === 'hfill')
    return `\\par\\medskip\\hfill\\begin{minipage}{7.5cm}\n${rows.map((r) => `${r.label}\\hfill ${r.value}\\par`).join('\n')}\n\\end{minipage}\\par\\medskip`;
  if (s.totals === 'tabularx')
    return `\\par\\medskip\\noindent\\begin{tabularx}{\\linewidth}{@{}Xlr@{}}\n${body.join('\n')}\n\\end{tabularx}\\par\\medskip`;
  return `\\begin{flushright}\n\\begin{tabular}{@{}l${s.totalsGap ? '@{\\hspace{2em}}' : ''}r@{}}\n${body.join('\n')}\n\\end{tabular}\n\\end{flushright}`;
}

/** Label/value lines of the information block. */
function infoEntries(inv, s, dates) {
  const I = WORDS[inv.lang].info;
  const e = [];
  if (!/\{no\}/.test(s.title)) e.push([pick(I.number), esc(inv.number)]);
  e.push([pick(I.date), dates.issued.tex]);
  if (s.dueShown === 'info') e.push([pick(I.due), dates.due.tex]);
  if (s.customer) e.push([pick(I.customer), esc(inv.buyer.number)]);
  if (s.order) e.push([pick(I.order), `${letters(2)}-${digits(5)}`]);
  if (s.period) {
    const from = new Date(Date.UTC(inv.issued.getUTCFullYear(), inv.issued.getUTCMonth(), 1));
    e.push([
      pick(I.period),
      chance(0.5)
        ? `${MONTHS[inv.lang][from.getUTCMonth()]} ${from.getUTCFullYear()}`
        : `${dateForm(inv, { kind: 'short' }, from).tex}--${dateForm(inv, { kind: 'short' }, new Date(from.getTime() + 27 * 86400000)).tex}`,
    ]);
  }
  if (s.vatShown && s.vatWhere === 'info') e.push([pick(I.vat), esc(vatPrinted(inv, s))]);
  return e;
}
const vatPrinted = (inv, s) => (s.vatSpaced ? inv.seller.vat.replace(/^([A-Z]+)(\d{3})(\d{3})(\d{3})/, '$1 $2 $3 $4') : inv.seller.vat);
const ibanPrinted = (inv, s) => (s.ibanGrouped ? inv.iban.replace(/(.{4})/g, '$1 ').trim() : inv.iban);

function infoBlock(entries, s, lang) {
  const colon = lang === 'fr' ? '\\,:' : ':';
  if (s.info === 'row')
    return `\\begin{tabular}{@{}${entries.map(() => 'l').join('@{\\hspace{1.5em}}')}@{}}\n${entries
      .map(([k]) => `{\\footnotesize ${lab(k, s.ot1)}}`)
      .join(' & ')} \\\\\n${entries.map(([, v]) => v).join(' & ')} \\\\\n\\end{tabular}`;
  if (s.info === 'lines') return entries.map(([k, v]) => `${lab(k, s.ot1)}${colon} ${v}`).join('\\\\\n');
  const valueAlign = s.info === 'table' ? 'r' : 'l';
  return `\\begin{tabular}{@{}l@{\\quad}${valueAlign}@{}}\n${entries
    .map(([k, v]) => `${s.info === 'table' ? `\\textbf{${lab(k, s.ot1)}}` : `${lab(k, s.ot1)}${colon}`} & ${v} \\\\`)
    .join('\n')}\n\\end{tabular}`;
}

/** Bank details, VAT id, tax number and register: as footer columns or as lines of text. */
function sellerFacts(inv, s) {
  const L = WORDS[inv.lang];
  const I = L.info;
  const bank = inv.iban
    ? [`${lab(L.bank)}: ${esc(inv.bankName)}`, `IBAN: ${ibanPrinted(inv, s)}`, `BIC: ${inv.bic}`]
    : [`${lab(L.bank)}: ${esc(inv.bankName)}`, `Account no.\\ ${digits(10)}`, `Routing no.\\ ${digits(9)}`];
  if (s.holderLine) bank.splice(1, 0, `${lab(L.holder)}: ${esc(inv.seller.name)}`);
  const legal = [];
  if (s.vatShown && s.vatWhere === 'footer') legal.push(`${lab(pick(I.vat), s.ot1)}: ${esc(vatPrinted(inv, s))}`);
  if (s.taxNoShown) legal.push(`${inv.country === 'US' ? 'EIN' : I.taxno}: ${esc(inv.taxNo)}`);
  if (!inv.seller.freelancer) legal.push(esc(L.register(word())));
  const contact = [esc(inv.seller.name), esc(inv.seller.street), esc(`${inv.seller.zip} ${inv.seller.city}`)];
  return { bank, legal, contact };
}

function footerColumns(facts, s) {
  const col = (lines) => `\\begin{tabular}[t]{@{}l@{}}${lines.join('\\\\')}\\end{tabular}`;
  const groups = [facts.contact, facts.bank, facts.legal].filter((g) => g.length);
  return `\\parbox[t]{\\textwidth}{\\${s.footSize}${groups.map(col).join('\\hfill')}}`;
}

function document(inv, s) {
  const L = WORDS[inv.lang];
  const S = inv.seller;
  const B = inv.buyer;
  const dates = { issued: dateForm(inv, s.date, inv.issued, { today: true }), due: dateForm(inv, s.date, inv.due) };
  const facts = sellerFacts(inv, s);
  const totals = totalsOf(inv, s);
  const inside = s.totals === 'inside';
  const table = itemTable(inv, s, inside ? totals.rows : null);
  const titleText = fill(s.title, { no: esc(inv.number) });
  const e = (t) => esc(t, s.ot1);
  const buyerLines = [B.name, ...(B.contact ? [B.contact] : []), B.street, `${B.zip} ${B.city}`].map(e);
  const vatHeader = s.vatShown && s.vatWhere === 'header' ? `${lab(pick(L.info.vat), s.ot1)}: ${e(vatPrinted(inv, s))}` : '';
  const packages = [
    s.font.tex,
    s.babel ? `\\usepackage[${s.babel}]{babel}` : '',
    s.euro === '\\euro{}' || s.ot1 ? '\\usepackage{eurosym}' : '',
    s.rules === 'zebra' ? '\\usepackage[table]{xcolor}' : '',
    '\\usepackage{array,tabularx,longtable,xltabular,booktabs,dcolumn,lastpage}',
  ];
  const dueText = s.dueShown === 'text' ? fill(pick(L.dueText), { due: dates.due.tex }) : '';
  const terms = s.dueShown === 'terms' ? fill(pick(L.terms), { days: inv.days }) : '';
  const rateText =
    inv.kind === 'hours' && !s.rateColumn
      ? fill(L.rateText, { rate: money(inv, inv.items.find((it) => it.unitKind === 'hours')?.price ?? 0, s).tex })
      : '';
  const bankText =
    s.footer === 'text' ? `\\par\\smallskip{\\small ${[...facts.bank, ...facts.legal].join(' \\textperiodcentered{} ')}}` : '';
  const legalFr = inv.lang === 'fr' && chance(0.6) ? `\\par\\smallskip{\\scriptsize ${fill(L.legal, { fee: `40~${s.currency}` })}}` : '';
  const after = [
    inside ? '' : totalsBlock(totals.rows, s),
    '\\par\\medskip',
    rateText,
    dueText ? `${dueText}\\par` : '',
    terms ? `${terms}\\par` : '',
    chance(0.6) ? `${lab(pick(L.thanks), s.ot1)}\\par` : '',
    bankText,
    legalFr,
  ]
    .filter(Boolean)
    .join('\n');
  const preamble = `\\hyphenpenalty=10000
\\exhyphenpenalty=10000${inv.lang === 'en' ? '' : `\n\\def\\pagename{${L.page.split(' ')[0]}}`}
\\day=${inv.issued.getUTCDate()} \\month=${inv.issued.getUTCMonth() + 1} \\year=${inv.issued.getUTCFullYear()}
\\renewcommand{\\arraystretch}{${pick(['1', '1.15', '1.3'])}}`;
  const entries = infoEntries(inv, s, dates);

  if (s.layout === 'letter') {
    const lco = inv.lang === 'fr' ? 'NF' : inv.country === 'US' ? 'UScommercial9' : pick(['DIN', 'DIN', 'SN', 'DINmtext']);
    const ref = s.refline; // invoice number, customer number and date in KOMA's reference line
    const captions = L.refCaptions;
    const refVars = ref
      ? [
          `\\setkomavar{invoice}{${e(inv.number)}}\\setkomavar*{invoice}{${lab(captions.invoice, s.ot1)}}`,
          s.customer ? `\\setkomavar{customer}{${e(B.number)}}\\setkomavar*{customer}{${lab(captions.customer, s.ot1)}}` : '',
          s.vatShown && s.vatWhere === 'info'
            ? `\\newkomavar[${lab(pick(L.info.vat), s.ot1)}]{vatid}\\setkomavar{vatid}{${e(vatPrinted(inv, s))}}\\addtoreffields{vatid}`
            : '',
        ]
      : [];
    const bodyInfo = ref
      ? s.dueShown === 'info'
        ? `${lab(pick(L.info.due), s.ot1)}: ${dates.due.tex}\\par\\medskip`
        : ''
      : `${infoBlock(
          entries.filter(([k]) => !L.info.date.includes(k)),
          s,
          inv.lang,
        )}\\par\\medskip`;
    const subject = ref || /\{no\}/.test(s.title) ? titleText : `${titleText} ${e(inv.number)}`;
    return {
      rows: table.want,
      source: `\\documentclass[${s.size}pt,paper=a4,${lco},fromalign=${pick(['left', 'right', 'center'])},fromrule=${pick(['aftername', 'afteraddress', 'false'])},fromphone=true,fromemail=${chance(0.6)},refline=${pick(['wide', 'narrow'])},parskip=half,firstfoot=${s.footer === 'footer'},foldmarks=${chance(0.5)}]{scrlttr2}
${packages.filter(Boolean).join('\n')}
${preamble}
\\setkomavar{fromname}{${e(S.name)}${S.trade ? `\\\\{\\small ${e(S.trade)}}` : ''}}
\\setkomavar{fromaddress}{${e(S.street)}\\\\${e(`${S.zip} ${S.city}`)}${vatHeader ? `\\\\${vatHeader}` : ''}}
\\setkomavar{fromphone}{${e(S.phone)}}\\setkomavar*{fromphone}{${lab(L.phone)}:~}
\\setkomavar{fromemail}{${e(S.email)}}\\setkomavar*{fromemail}{${lab(L.email)}:~}
\\setkomavar{backaddress}{${e(S.name)}\\\\${e(S.street)}\\\\${e(`${S.zip} ${S.city}`)}}
\\setkomavar{date}{${dates.issued.tex}}\\setkomavar*{date}{${lab(captions.date)}}
${ref ? '' : `\\setkomavar{place}{${e(S.city)}}`}
${refVars.filter(Boolean).join('\n')}
\\setkomavar{subject}{${subject}}
\\setkomavar{signature}{${e(S.freelancer ? S.name : S.owner)}}
${s.footer === 'footer' ? `\\setkomavar{firstfoot}{${footerColumns(facts, s)}}` : ''}
\\begin{document}
\\begin{letter}{${buyerLines.join('\\\\')}}
\\opening{${lab(pick(L.opening))}}
${s.intro ? `${lab(pick(L.intro), s.ot1)}\\par` : ''}
${bodyInfo}
${table.tex}
${after}
\\closing{${lab(pick(L.closing))}}
\\end{letter}
\\end{document}
`,
    };
  }

  // A plain page: letterhead, parties, information block, the table, totals, text; a footer by fancyhdr.
  const head = sellerHead(inv, s, vatHeader);
  const info = infoBlock(entries, s, inv.lang);
  const titleTex = `{\\${pick(['Large', 'LARGE', 'huge'])}\\bfseries ${titleText}}`;
  const title = s.head === 'titleRight' ? '' : `${titleTex}\\par\\medskip`;
  const billLabel = s.labelled ? `\\textbf{${lab(pick(L.billTo))}${inv.lang === 'fr' ? '\\,:' : ':'}}\\\\` : '';
  const buyerBlock = `${billLabel}${buyerLines.join('\\\\')}`;
  let parties;
  if (s.parties === 'side')
    parties = `\\noindent\\begin{minipage}[t]{0.5\\textwidth}\n${s.infoRight ? buyerBlock : info}\n\\end{minipage}\\hfill\\begin{minipage}[t]{0.42\\textwidth}\n${s.infoRight ? info : buyerBlock}\n\\end{minipage}\n\n\\bigskip\n${title}`;
  else
    parties = `\\noindent ${buyerBlock}\\par\\bigskip\n${title}\n${s.infoRight ? `\\hfill\\begin{minipage}[t]{0.45\\textwidth}\n${info}\n\\end{minipage}` : `\\noindent ${info}`}\\par\\bigskip`;
  const footer = s.footer === 'footer' ? `\\fancyfoot[C]{${footerColumns(facts, s)}}` : s.pageNumbers ? '' : '\\fancyfoot[C]{\\thepage}';
  const pageNo = s.pageNumbers ? `\\fancyhead[R]{\\small ${fill(lab(L.page), { p: '{\\thepage}', n: '\\pageref{LastPage}' })}}` : '';
  return {
    rows: table.want,
    source: `\\documentclass[${s.size}pt,a4paper]{${s.layout === 'scrartcl' ? 'scrartcl' : 'article'}}
${packages.filter(Boolean).join('\n')}
\\usepackage[a4paper,left=${pick(['2', '2.5'])}cm,right=${pick(['2', '2.5'])}cm,top=2cm,bottom=${s.footer === 'footer' ? '4' : '2.5'}cm,footskip=${s.footer === 'footer' ? '2' : '1'}cm]{geometry}
\\usepackage{fancyhdr}
${preamble}
\\setlength{\\parindent}{0pt}
\\pagestyle{fancy}\\fancyhf{}\\renewcommand{\\headrulewidth}{0pt}${s.footRule ? '' : '\\renewcommand{\\footrulewidth}{0pt}'}
${footer}
${pageNo}
\\begin{document}
${head}
${parties}
${s.intro ? `${lab(pick(L.intro), s.ot1)}\\par\\medskip` : ''}
${table.tex}
${after}
\\end{document}
`,
  };
}

function sellerHead(inv, s, vatHeader) {
  const L = WORDS[inv.lang];
  const S = inv.seller;
  const e = (t) => esc(t, s.ot1);
  const name = `{\\${pick(['Large', 'LARGE', 'Huge'])}\\bfseries ${e(S.name)}}`;
  const trade = S.trade ? `{\\small ${e(S.trade)}}` : '';
  const addressLine = `${e(S.street)} ${s.sep} ${e(`${S.zip} ${S.city}`)}`;
  const contact = `${lab(L.phone)} ${e(S.phone)} ${s.sep} ${e(S.email)}`;
  const lines = [name, trade, addressLine, contact, vatHeader].filter(Boolean);
  const rule = s.headRule ? '\\par\\vspace{2pt}\\hrule\\par' : '';
  if (s.head === 'right') return `\\begin{flushright}\n${lines.join('\\\\\n')}\n\\end{flushright}${rule}\\bigskip`;
  if (s.head === 'center') return `\\begin{center}\n${lines.join('\\\\\n')}\n\\end{center}${rule}\\bigskip`;
  if (s.head === 'titleRight')
    return `\\noindent${name}\\hfill{\\Huge ${fill(s.title, { no: esc(inv.number) })}}\\\\\n${lines.slice(1).join('\\\\\n')}${rule}\\par\\bigskip`;
  return `\\noindent ${lines.join('\\\\\n')}${rule}\\par\\bigskip`;
}

// ------------------------------------------------------------------------------------------------- the dataset

/** pdflatex (twice: longtable's widths and LastPage settle on the second run) and poppler's texts of the PDF. */
function typeset(source) {
  const dir = mkdtempSync(join(tmpdir(), 'docket-latex-inv-'));
  try {
    writeFileSync(join(dir, 'doc.tex'), source);
    for (let k = 0; k < 2; k++)
      try {
        execFileSync('pdflatex', ['-interaction=nonstopmode', '-halt-on-error', 'doc.tex'], { cwd: dir, stdio: 'ignore' });
      } catch {
        const errors = readFileSync(join(dir, 'doc.log'), 'utf8')
          .split('\n')
          .filter((l) => l.startsWith('!') || l.startsWith('l.'));
        throw new Error(`pdflatex failed:\n${source}\n${errors.join('\n')}`);
      }
    const pdf = join(dir, 'doc.pdf');
    const text = (mode) => execFileSync('pdftotext', [...mode, pdf, '-'], { encoding: 'utf8' });
    return { bytes: readFileSync(pdf), layout: text(['-layout']), raw: text([]) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function invoice(i) {
  const inv = invent(pick(LANGUAGES));
  const s = styleOf(inv);
  const { source, rows } = document(inv, s);
  const fig = (x) => figure(inv, x, s).read;
  const dates = { issued: dateForm(inv, s.date, inv.issued), due: dateForm(inv, s.date, inv.due) };
  const want = {
    invoice_number: [inv.number, inv.number],
    invoice_date: [isoOf(inv.issued), dates.issued.read],
    ...(s.dueShown === 'info' || s.dueShown === 'text' ? { due_date: [isoOf(inv.due), dates.due.read] } : {}),
    seller_name: [inv.seller.name, inv.seller.name],
    buyer_name: [inv.buyer.name, inv.buyer.name],
    total_amount: [inv.total, fig(inv.total)],
    net_amount: [inv.net, fig(inv.net)],
    tax_amount: [inv.tax, inv.taxes.map((t) => fig(t.amount))],
    ...(s.vatShown ? { vat_id: [inv.seller.vat, inv.seller.vat] } : {}),
    ...(inv.iban ? { iban: [inv.iban, inv.iban] } : {}),
  };
  const id = `latex-invoice-${String(i).padStart(3, '0')}-${inv.lang}-${s.layout}-${s.env}`;
  return { id, source, want, currency: inv.currency, rows };
}

const dataset = datasetWriter(out);
mkdirSync(join(out, 'tex'), { recursive: true });
let dropped = 0;
for (let i = 0; i < count; i++) {
  const d = invoice(i);
  const { bytes, layout, raw } = typeset(d.source);
  const texts = { layout, raw };
  const keep = (entries) =>
    Object.fromEntries(entries.filter(([, [, surface]]) => printed(texts, surface) || (dropped++, false)).map(([key, [v]]) => [key, v]));
  const want = { ...keep(Object.entries(d.want)), currency: d.currency, line_items: d.rows.map((r) => keep(Object.entries(r))) };
  dataset.add(d.id, { bytes, ext: 'pdf', mediaType: 'application/pdf', want, schema: INVOICE_SCHEMA });
  writeFileSync(join(out, 'tex', `${d.id}.tex`), d.source); // (the source, to read a failure by)
}
dataset.finish();
console.log(`${count} invented LaTeX invoices in ${out} (${dropped} values not found printed, left out)`);
