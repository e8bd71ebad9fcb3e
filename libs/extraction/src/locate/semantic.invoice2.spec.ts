import { afterAll, describe, expect, it } from '@jest/globals';
import { createExtractionEngine, extractFromLayout } from '../extraction.engine.js';
import type { ExtractionSchema } from '../engine.types.js';
import { buildPage } from '../layout/layout.builder.js';
import type { DocLayout, Word } from '../layout/layout.types.js';
import { makePdf } from '../testing/pdf.test-helper.js';

// More synthetic invoice layouts (every company, person, number and address invented; IBANs carry made-up
// accounts with a computed check): Iberian, Italian, Nordic, Czech and Hungarian label words; totals printed only
// as an amount due after a payment; numbers only in the title; ordinal, ISO-like and month-abbreviation dates;
// the currency only in a column header; item-code, unit, discount and VAT-rate columns; separate delivery
// addresses; a table continued overleaf without its header. Each one runs the whole engine on a text-layer PDF
// (pdfkit), or on a built layout where the standard PDF fonts cannot print the script, and must give exactly the
// values a reader of the page would write down.

const engine = createExtractionEngine();
afterAll(() => engine.close());

/** The invoice schema of the evaluation corpus (same keys, labels and descriptions). */
const invoiceSchema: ExtractionSchema = {
  fields: [
    { key: 'invoice_number', label: 'Invoice number', data_type: 'string', description: 'The invoice or credit-note number as printed.' },
    { key: 'invoice_date', label: 'Invoice date', data_type: 'date', description: 'Date the invoice was issued.' },
    { key: 'due_date', label: 'Due date', data_type: 'date', description: 'Payment due date, if one is printed.' },
    { key: 'seller_name', label: 'Seller name', data_type: 'string', description: 'Name of the company or person issuing the invoice.' },
    { key: 'buyer_name', label: 'Buyer name', data_type: 'string', description: 'Name of the customer the invoice is addressed to.' },
    { key: 'currency', label: 'Currency', data_type: 'string', description: 'ISO 4217 code of the invoice currency, e.g. EUR or USD.' },
    { key: 'total_amount', label: 'Total', data_type: 'number', description: 'Grand total including tax, before any prepayment is deducted. Negative if printed negative (credit notes).' },
    { key: 'net_amount', label: 'Net amount', data_type: 'number', description: 'Total before tax.' },
    { key: 'tax_amount', label: 'Tax amount', data_type: 'number', description: 'Total VAT / sales tax.' },
    { key: 'vat_id', label: 'Seller VAT ID', data_type: 'string', description: "The seller's VAT identification number." },
    { key: 'iban', label: 'IBAN', data_type: 'string', description: 'IBAN of the account the seller wants to be paid into.' },
    {
      key: 'line_items',
      label: 'Line items',
      data_type: 'table',
      description: 'One row per invoiced item.',
      fields: [
        { key: 'description', label: 'Description', data_type: 'string' },
        { key: 'quantity', label: 'Quantity', data_type: 'number' },
        { key: 'unit_price', label: 'Unit price', data_type: 'number', description: 'Price per unit as printed on the line.' },
        { key: 'amount', label: 'Amount', data_type: 'number', description: 'Line total as printed.' },
      ],
    },
  ],
};

/** One run of text: `x` is its left edge, or its right edge when `right` (amount columns are right-aligned). */
interface Item {
  x: number;
  y: number;
  t: string;
  size: number;
  right?: boolean;
  bold?: boolean;
}

const L = (x: number, y: number, t: string, size = 9, bold = false): Item => ({ x, y, t, size, bold });
const R = (x: number, y: number, t: string, size = 9, bold = false): Item => ({ x, y, t, size, right: true, bold });
/** Lines stacked under each other from (x, y). */
const block = (x: number, y: number, lines: string[], size = 9, lead = size + 3): Item[] => lines.map((t, i) => L(x, y + i * lead, t, size));
/** A table row: cells [x, text] left-aligned or [x, text, 'r'] right-aligned at x. */
const row = (y: number, ...cells: [number, string, 'r'?][]): Item[] => cells.map(([x, t, r]) => (r ? R(x, y, t) : L(x, y, t)));

async function pdfOf(pages: Item[][]): Promise<Uint8Array> {
  return makePdf(
    (d) => {
      pages.forEach((items, i) => {
        if (i > 0) d.addPage({ size: 'A4', margin: 0 });
        for (const it of items) {
          d.font(it.bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(it.size);
          const x = it.right ? it.x - d.widthOfString(it.t) : it.x;
          d.text(it.t, x, it.y, { lineBreak: false });
        }
      });
    },
    { size: 'A4', margin: 0 },
  );
}

/** The same items as a text-layer layout (for scripts the PDF's standard fonts cannot print, e.g. Polish). */
function layoutOf(pages: Item[][]): DocLayout {
  return {
    pages: pages.map((items, i) => {
      const words: Word[] = [];
      for (const it of items) {
        const cw = it.size * 0.5;
        const width = it.t.length * cw;
        let x = it.right ? it.x - width : it.x;
        for (const t of it.t.split(' ')) {
          words.push({ text: t, x0: x, x1: x + t.length * cw, y0: it.y, y1: it.y + it.size, conf: 1 });
          x += (t.length + 1) * cw;
        }
      }
      return buildPage(i + 1, 595, 842, words);
    }),
  };
}

interface Case {
  name: string;
  pages: Item[][];
  want: Record<string, unknown>;
  /** Build a layout instead of a PDF (characters outside the standard PDF fonts' encoding). */
  layout?: boolean;
}

const en = (n: number) => n.toLocaleString('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

interface Case {
  name: string;
  pages: Item[][];
  want: Record<string, unknown>;
  /** Build a layout instead of a PDF (characters outside the standard PDF fonts' encoding). */
  layout?: boolean;
}

// An English invoice whose item table fills page 1 to the foot and goes on overleaf without its header.
const longItems: [string, number, number][] = Array.from({ length: 34 }, (_, i) => {
  const kinds = ['Copy paper A4 80 g, box of 5 reams', 'Toner cartridge black, high yield', 'Ring binder A4, 50 mm, blue', 'Sticky notes 76x76, pack of 12', 'Ballpoint pens, blue, box of 50'];
  return [`${kinds[i % 5]!} (site ${Math.floor(i / 5) + 1})`, (i % 4) + 1, [21.5, 64.9, 2.35, 5.8, 9.95][i % 5]!];
});
const longNet = Math.round(longItems.reduce((s, [, q, p]) => s + Math.round(q * p * 100), 0)) / 100;
const longTax = Math.round(longNet * 20) / 100;
const longRows = (from: number, to: number, y0: number) =>
  longItems.slice(from, to).flatMap(([d, q, p], i) => row(y0 + i * 16, [50, d], [360, String(q), 'r'], [450, en(p), 'r'], [545, en(Math.round(q * p * 100) / 100), 'r']));

const cases: Case[] = [
  {
    name: 'ES: "Fecha de emisión", reference and discount/IVA-rate columns, client block right with its own NIF, "Total a pagar"',
    pages: [
      [
        L(50, 45, 'Carpintería Albaida S.L.', 14, true),
        ...block(50, 65, ['Avda. del Puerto 221', '46023 Valencia', 'CIF: ESB98765432'], 8),
        L(360, 45, 'FACTURA', 18, true),
        ...row(75, [360, 'Nº de factura:'], [460, '2025-A-0318']),
        ...row(87, [360, 'Fecha de emisión:'], [460, '07/03/2025']),
        ...row(99, [360, 'Vencimiento:'], [460, '06/04/2025']),
        L(330, 130, 'Datos del cliente', 9, true),
        ...block(330, 142, ['Reformas Turia S.L.U.', 'C/ Sueca 45, 3º', '46006 Valencia', 'NIF: B46123456']),
        ...row(220, [50, 'Ref.'], [95, 'Descripción'], [330, 'Cant.', 'r'], [390, 'Precio', 'r'], [440, 'Dto. %', 'r'], [485, 'IVA %', 'r'], [545, 'Importe', 'r']),
        ...row(236, [50, 'PT-90'], [95, 'Puerta interior roble 72,5 cm'], [330, '4', 'r'], [390, '185,00', 'r'], [440, '10', 'r'], [485, '21', 'r'], [545, '666,00', 'r']),
        ...row(250, [50, 'MC-12'], [95, 'Marco y tapajuntas'], [330, '4', 'r'], [390, '42,50', 'r'], [485, '21', 'r'], [545, '170,00', 'r']),
        ...row(264, [50, 'MO-01'], [95, 'Mano de obra instalación (horas)'], [330, '6', 'r'], [390, '32,00', 'r'], [485, '21', 'r'], [545, '192,00', 'r']),
        ...row(300, [380, 'Base imponible'], [545, '1.028,00 €', 'r']),
        ...row(312, [380, 'Cuota IVA 21%'], [545, '215,88 €', 'r']),
        L(380, 326, 'Total a pagar', 9, true),
        R(545, 326, '1.243,88 €', 9, true),
        L(50, 370, 'Forma de pago: transferencia bancaria a ES64 2100 0418 4502 0005 1333'),
      ],
    ],
    want: {
      invoice_number: '2025-A-0318',
      invoice_date: '2025-03-07',
      due_date: '2025-04-06',
      seller_name: 'Carpintería Albaida S.L.',
      buyer_name: 'Reformas Turia S.L.U.',
      currency: 'EUR',
      total_amount: 1243.88,
      net_amount: 1028,
      tax_amount: 215.88,
      vat_id: 'ESB98765432',
      iban: 'ES64 2100 0418 4502 0005 1333',
      line_items: [
        { description: 'Puerta interior roble 72,5 cm', quantity: 4, unit_price: 185, amount: 666 },
        { description: 'Marco y tapajuntas', quantity: 4, unit_price: 42.5, amount: 170 },
        { description: 'Mano de obra instalación (horas)', quantity: 6, unit_price: 32, amount: 192 },
      ],
    },
  },
  {
    name: 'IT: header grid "Numero fattura / Data fattura / Scadenza / Valuta", "Destinatario" right, U.M. and Sconto % columns, "Totale fattura"',
    pages: [
      [
        L(50, 45, 'Ceramiche Valdarno S.r.l.', 14, true),
        ...block(50, 65, ['Via Aretina 112', '50136 Firenze', 'P.IVA IT04821370486'], 8),
        L(330, 70, 'Destinatario', 9, true),
        ...block(330, 82, ['Albergo Bellavista S.n.c.', 'Lungarno Corsini 8', '50123 Firenze']),
        ...row(150, [50, 'Numero fattura'], [170, 'Data fattura'], [290, 'Scadenza'], [410, 'Valuta']),
        ...row(162, [50, '118/2025'], [170, '14/03/2025'], [290, '13/04/2025'], [410, 'EUR']),
        ...row(210, [50, 'Codice'], [105, 'Descrizione'], [300, 'U.M.'], [360, 'Q.tà', 'r'], [420, 'Prezzo', 'r'], [475, 'Sconto %', 'r'], [545, 'Importo', 'r']),
        ...row(226, [50, 'CV-3030'], [105, 'Gres porcellanato 30x30'], [300, 'mq'], [360, '42,5', 'r'], [420, '18,40', 'r'], [545, '782,00', 'r']),
        ...row(240, [50, 'CV-BAT'], [105, 'Battiscopa coordinato'], [300, 'ml'], [360, '36', 'r'], [420, '4,90', 'r'], [475, '5', 'r'], [545, '167,58', 'r']),
        ...row(254, [50, 'TRASP'], [105, 'Trasporto'], [300, 'nr'], [360, '1', 'r'], [420, '60,00', 'r'], [545, '60,00', 'r']),
        ...row(290, [380, 'Totale imponibile'], [545, '1.009,58', 'r']),
        ...row(302, [380, 'IVA 22%'], [545, '222,11', 'r']),
        L(380, 316, 'Totale fattura', 9, true),
        R(545, 316, '1.231,69', 9, true),
        L(50, 360, 'Pagamento: bonifico bancario — IBAN IT33 X054 2811 1010 0000 0123 457'),
      ],
    ],
    want: {
      invoice_number: '118/2025',
      invoice_date: '2025-03-14',
      due_date: '2025-04-13',
      seller_name: 'Ceramiche Valdarno S.r.l.',
      buyer_name: 'Albergo Bellavista S.n.c.',
      currency: 'EUR',
      total_amount: 1231.69,
      net_amount: 1009.58,
      tax_amount: 222.11,
      vat_id: 'IT04821370486',
      iban: 'IT33 X054 2811 1010 0000 0123 457',
      line_items: [
        { description: 'Gres porcellanato 30x30', quantity: 42.5, unit_price: 18.4, amount: 782 },
        { description: 'Battiscopa coordinato', quantity: 36, unit_price: 4.9, amount: 167.58 },
        { description: 'Trasporto', quantity: 1, unit_price: 60, amount: 60 },
      ],
    },
  },
  {
    name: 'PT: "Fatura n.º" in the title, "Data de emissão" / "Data de vencimento" ISO dates, "Exmo.(s) Sr.(s)", Total ilíquido / Total IVA',
    pages: [
      [
        L(50, 45, 'Vidraria Atlântica, Lda.', 14, true),
        ...block(50, 65, ['Rua do Almada 310', '4050-032 Porto', 'NIF PT509876543'], 8),
        L(330, 100, 'Exmo.(s) Sr.(s)', 8),
        ...block(330, 112, ['Quinta do Vale Verde, Lda.', 'Estrada Nacional 222, km 14', '5110-204 Armamar']),
        L(50, 170, 'Fatura n.º FT2025/118', 14, true),
        ...row(192, [50, 'Data de emissão:'], [140, '2025-03-14']),
        ...row(204, [50, 'Data de vencimento:'], [140, '2025-04-13']),
        ...row(240, [50, 'Descrição'], [300, 'Qtd.', 'r'], [330, 'Un.'], [400, 'Preço Unit.', 'r'], [450, 'IVA', 'r'], [545, 'Total', 'r']),
        ...row(256, [50, 'Vidro duplo 6+12+6 mm'], [300, '3', 'r'], [330, 'm2'], [400, '78,00', 'r'], [450, '23%', 'r'], [545, '234,00', 'r']),
        ...row(270, [50, 'Silicone transparente'], [300, '10', 'r'], [330, 'un'], [400, '6,50', 'r'], [450, '23%', 'r'], [545, '65,00', 'r']),
        ...row(306, [380, 'Total ilíquido'], [545, '299,00 €', 'r']),
        ...row(318, [380, 'Total IVA'], [545, '68,77 €', 'r']),
        L(380, 332, 'Total a pagar', 9, true),
        R(545, 332, '367,77 €', 9, true),
        L(50, 380, 'IBAN: PT61 0007 0000 0012 3456 7890 2'),
      ],
    ],
    want: {
      invoice_number: 'FT2025/118',
      invoice_date: '2025-03-14',
      due_date: '2025-04-13',
      seller_name: 'Vidraria Atlântica, Lda.',
      buyer_name: 'Quinta do Vale Verde, Lda.',
      currency: 'EUR',
      total_amount: 367.77,
      net_amount: 299,
      tax_amount: 68.77,
      vat_id: 'PT509876543',
      iban: 'PT61 0007 0000 0012 3456 7890 2',
      line_items: [
        { description: 'Vidro duplo 6+12+6 mm', quantity: 3, unit_price: 78, amount: 234 },
        { description: 'Silicone transparente', quantity: 10, unit_price: 6.5, amount: 65 },
      ],
    },
  },
  {
    name: 'SE: Fakturanummer / Fakturadatum / Förfallodatum, "Kund" block, article and unit columns, "Att betala SEK", space thousands',
    pages: [
      [
        L(50, 45, 'Fjällbacka Snickeri AB', 14, true),
        ...block(50, 65, ['Hamngatan 7', '457 40 Fjällbacka'], 8),
        L(380, 45, 'FAKTURA', 18, true),
        ...row(75, [380, 'Fakturanummer'], [480, '10457']),
        ...row(87, [380, 'Fakturadatum'], [480, '2025-03-14']),
        ...row(99, [380, 'Förfallodatum'], [480, '2025-04-13']),
        ...row(111, [380, 'Kundnummer'], [480, '2231']),
        L(50, 120, 'Kund', 9, true),
        ...block(50, 132, ['Bryggeriet Västkusten AB', 'Kvarngatan 3', '451 30 Uddevalla']),
        ...row(200, [50, 'Artikel'], [100, 'Benämning'], [340, 'Antal', 'r'], [350, 'Enhet'], [450, 'À-pris', 'r'], [545, 'Belopp', 'r']),
        ...row(216, [50, 'K-220'], [100, 'Bardisk i ek, måttbeställd'], [340, '1', 'r'], [350, 'st'], [450, '14 800,00', 'r'], [545, '14 800,00', 'r']),
        ...row(230, [50, 'K-MON'], [100, 'Montering'], [340, '6', 'r'], [350, 'tim'], [450, '650,00', 'r'], [545, '3 900,00', 'r']),
        ...row(266, [380, 'Summa exkl. moms'], [545, '18 700,00', 'r']),
        ...row(278, [380, 'Moms 25 %'], [545, '4 675,00', 'r']),
        L(380, 292, 'Att betala SEK', 9, true),
        R(545, 292, '23 375,00', 9, true),
        L(50, 770, 'Fjällbacka Snickeri AB · Org.nr 556677-8899 · Momsreg.nr SE556677889901 · Godkänd för F-skatt', 7),
        L(50, 780, 'Bankgiro 5050-1055 · IBAN SE45 5000 0000 0583 9825 7466', 7),
      ],
    ],
    want: {
      invoice_number: '10457',
      invoice_date: '2025-03-14',
      due_date: '2025-04-13',
      seller_name: 'Fjällbacka Snickeri AB',
      buyer_name: 'Bryggeriet Västkusten AB',
      currency: 'SEK',
      total_amount: 23375,
      net_amount: 18700,
      tax_amount: 4675,
      vat_id: 'SE556677889901',
      iban: 'SE45 5000 0000 0583 9825 7466',
      line_items: [
        { description: 'Bardisk i ek, måttbeställd', quantity: 1, unit_price: 14800, amount: 14800 },
        { description: 'Montering', quantity: 6, unit_price: 650, amount: 3900 },
      ],
    },
  },
  {
    name: 'DK: "Faktura nr." in the title, Fakturadato / Forfaldsdato, Rabat column, "Moms 25%", "Total DKK", Moms-nr. in the footer',
    pages: [
      [
        L(50, 45, 'Havnens Cykler ApS', 14, true),
        ...block(50, 65, ['Nyhavn 31', '1051 København K'], 8),
        L(330, 100, 'Kunde', 9, true),
        ...block(330, 112, ['Bageriet Brød & Co. I/S', 'Vesterbrogade 88', '1620 København V']),
        L(50, 170, 'Faktura nr. 2025-117', 14, true),
        ...row(192, [50, 'Fakturadato:'], [140, '14.03.2025']),
        ...row(204, [50, 'Forfaldsdato:'], [140, '28.03.2025']),
        ...row(240, [50, 'Beskrivelse'], [320, 'Antal', 'r'], [400, 'Stk. pris', 'r'], [450, 'Rabat', 'r'], [545, 'Beløb', 'r']),
        ...row(256, [50, 'Ladcykel, el-assisteret'], [320, '1', 'r'], [400, '24.995,00', 'r'], [545, '24.995,00', 'r']),
        ...row(270, [50, 'Cykellås, bøjle'], [320, '2', 'r'], [400, '449,00', 'r'], [450, '10%', 'r'], [545, '808,20', 'r']),
        ...row(306, [380, 'Subtotal'], [545, '25.803,20', 'r']),
        ...row(318, [380, 'Moms 25%'], [545, '6.450,80', 'r']),
        L(380, 332, 'Total DKK', 9, true),
        R(545, 332, '32.254,00', 9, true),
        L(50, 380, 'Betaling til IBAN DK23 0040 0440 1162 44'),
        L(50, 780, 'Havnens Cykler ApS · Nyhavn 31 · 1051 København K · Moms-nr. DK31456789', 7),
      ],
    ],
    want: {
      invoice_number: '2025-117',
      invoice_date: '2025-03-14',
      due_date: '2025-03-28',
      seller_name: 'Havnens Cykler ApS',
      buyer_name: 'Bageriet Brød & Co. I/S',
      currency: 'DKK',
      total_amount: 32254,
      net_amount: 25803.2,
      tax_amount: 6450.8,
      vat_id: 'DK31456789',
      iban: 'DK23 0040 0440 1162 44',
      line_items: [
        { description: 'Ladcykel, el-assisteret', quantity: 1, unit_price: 24995, amount: 24995 },
        { description: 'Cykellås, bøjle', quantity: 2, unit_price: 449, amount: 808.2 },
      ],
    },
  },
  {
    name: 'CZ: "Faktura – daňový doklad č.", Dodavatel / Odběratel side by side each with IČO and DIČ, "Celkem k úhradě" in Kč',
    layout: true,
    pages: [
      [
        L(50, 45, 'Faktura – daňový doklad č. 2025031', 14, true),
        L(50, 90, 'Dodavatel', 9, true),
        ...block(50, 102, ['Tiskárna Vltava s.r.o.', 'Na Poříčí 12', '110 00 Praha 1', 'IČO: 27123456', 'DIČ: CZ27123456']),
        L(320, 90, 'Odběratel', 9, true),
        ...block(320, 102, ['Kavárna U Mostu s.r.o.', 'Mostecká 4', '118 00 Praha 1', 'IČO: 28765432', 'DIČ: CZ28765432']),
        ...row(180, [50, 'Datum vystavení:'], [160, '14.03.2025']),
        ...row(192, [50, 'Datum splatnosti:'], [160, '28.03.2025']),
        ...row(204, [50, 'Forma úhrady:'], [160, 'převodem']),
        ...row(180, [320, 'Bankovní účet:'], [400, '19-2000145400/0800']),
        ...row(192, [320, 'IBAN:'], [400, 'CZ38 0800 0000 1920 0014 5400']),
        ...row(240, [50, 'Označení dodávky'], [320, 'Množství', 'r'], [410, 'Cena za MJ', 'r'], [545, 'Celkem', 'r']),
        ...row(256, [50, 'Letáky A5, oboustranný tisk'], [320, '2000', 'r'], [410, '1,20', 'r'], [545, '2 400,00', 'r']),
        ...row(270, [50, 'Grafická příprava'], [320, '1', 'r'], [410, '1 500,00', 'r'], [545, '1 500,00', 'r']),
        ...row(306, [360, 'Základ daně 21 %'], [545, '3 900,00', 'r']),
        ...row(318, [360, 'DPH 21 %'], [545, '819,00', 'r']),
        L(360, 332, 'Celkem k úhradě', 9, true),
        R(545, 332, '4 719,00 Kč', 9, true),
      ],
    ],
    want: {
      invoice_number: '2025031',
      invoice_date: '2025-03-14',
      due_date: '2025-03-28',
      seller_name: 'Tiskárna Vltava s.r.o.',
      buyer_name: 'Kavárna U Mostu s.r.o.',
      currency: 'CZK',
      total_amount: 4719,
      net_amount: 3900,
      tax_amount: 819,
      vat_id: 'CZ27123456',
      iban: 'CZ38 0800 0000 1920 0014 5400',
      line_items: [
        { description: 'Letáky A5, oboustranný tisk', quantity: 2000, unit_price: 1.2, amount: 2400 },
        { description: 'Grafická příprava', quantity: 1, unit_price: 1500, amount: 1500 },
      ],
    },
  },
  {
    name: 'US: number only in the title "INVOICE #2024-0071", "Sold To" beside a different "Ship To", no quantity column, payment deducted before "Amount Due"',
    pages: [
      [
        L(50, 45, 'Copperline Electric Co.', 14, true),
        ...block(50, 64, ['4410 Industrial Blvd', 'Tulsa, OK 74107', '(918) 555-0142'], 8),
        L(350, 45, 'INVOICE #2024-0071', 16, true),
        ...row(70, [350, 'Date:'], [430, 'March 14, 2025']),
        ...row(82, [350, 'Terms:'], [430, 'Net 30']),
        ...row(94, [350, 'Due Date:'], [430, 'April 13, 2025']),
        L(50, 130, 'Sold To', 9, true),
        ...block(50, 142, ['Prairie View Veterinary Clinic', '2200 S Yale Ave', 'Tulsa, OK 74114']),
        L(320, 130, 'Ship To', 9, true),
        ...block(320, 142, ['Redbud Property Management', 'Attn: Site 7', '8100 E 71st St', 'Tulsa, OK 74133']),
        ...row(220, [50, 'Description'], [545, 'Amount', 'r']),
        ...row(236, [50, 'Panel upgrade to 200A service'], [545, '2,850.00', 'r']),
        ...row(250, [50, 'Permit and inspection fees'], [545, '325.00', 'r']),
        ...row(264, [50, 'EV charger circuit, 50A'], [545, '640.00', 'r']),
        ...row(300, [380, 'Subtotal'], [545, '3,815.00', 'r']),
        ...row(312, [380, 'Sales Tax (7.25%)'], [545, '276.59', 'r']),
        ...row(324, [380, 'Total'], [545, '4,091.59', 'r']),
        ...row(336, [380, 'Payment received 02/28'], [545, '-1,000.00', 'r']),
        L(380, 350, 'Amount Due', 9, true),
        R(545, 350, '$3,091.59', 9, true),
      ],
    ],
    want: {
      invoice_number: '2024-0071',
      invoice_date: '2025-03-14',
      due_date: '2025-04-13',
      seller_name: 'Copperline Electric Co.',
      buyer_name: 'Prairie View Veterinary Clinic',
      currency: 'USD',
      total_amount: 4091.59,
      net_amount: 3815,
      tax_amount: 276.59,
      line_items: [
        { description: 'Panel upgrade to 200A service', amount: 2850 },
        { description: 'Permit and inspection fees', amount: 325 },
        { description: 'EV charger circuit, 50A', amount: 640 },
      ],
    },
  },
  {
    name: 'IE: ordinal dates ("3rd March 2025"), "Customer:" beside a "Delivery address:", code and VAT-% columns, currency only in "Amount (€)"',
    pages: [
      [
        L(50, 45, 'Burren Craft Supplies Ltd', 14, true),
        ...block(50, 64, ['Unit 9, Clonroad Business Park', 'Ennis, Co. Clare V95 X2T4'], 8),
        L(380, 45, 'INVOICE', 18, true),
        ...row(72, [380, 'Invoice No.'], [460, 'BCS-24117']),
        ...row(84, [380, 'Invoice Date'], [460, '3rd March 2025']),
        ...row(96, [380, 'Payment Due'], [460, '2nd April 2025']),
        L(50, 130, 'Customer:', 9, true),
        ...block(50, 142, ['Kilkee Gift Shop Ltd', 'O\'Curry Street', 'Kilkee, Co. Clare']),
        L(320, 130, 'Delivery address:', 9, true),
        ...block(320, 142, ['Atlantic Storage Ltd', 'Unit 4, Business Park', 'Ennistymon, Co. Clare']),
        ...row(220, [50, 'Code'], [100, 'Description'], [340, 'Qty', 'r'], [410, 'Unit Price', 'r'], [455, 'VAT %', 'r'], [545, 'Amount (€)', 'r']),
        ...row(236, [50, 'WL-01'], [100, 'Hand-turned bowl, ash'], [340, '6', 'r'], [410, '28.00', 'r'], [455, '23', 'r'], [545, '168.00', 'r']),
        ...row(250, [50, 'CN-07'], [100, 'Soy wax candle, heather'], [340, '12', 'r'], [410, '9.50', 'r'], [455, '23', 'r'], [545, '114.00', 'r']),
        ...row(264, [50, 'BK-3'], [100, 'Local history book (hardback)'], [340, '5', 'r'], [410, '18.00', 'r'], [455, '0', 'r'], [545, '90.00', 'r']),
        ...row(300, [380, 'Net Total'], [545, '372.00', 'r']),
        ...row(312, [380, 'VAT'], [545, '64.86', 'r']),
        L(380, 326, 'Total', 9, true),
        R(545, 326, '436.86', 9, true),
        L(50, 770, 'Burren Craft Supplies Ltd · Registered in Ireland No. 712345 · VAT Reg. No. IE8473625E', 7),
        L(50, 780, 'Bank of Ireland · IBAN IE02 AIBK 9311 5212 3456 79 · BIC AIBKIE2D', 7),
      ],
    ],
    want: {
      invoice_number: 'BCS-24117',
      invoice_date: '2025-03-03',
      due_date: '2025-04-02',
      seller_name: 'Burren Craft Supplies Ltd',
      buyer_name: 'Kilkee Gift Shop Ltd',
      currency: 'EUR',
      total_amount: 436.86,
      net_amount: 372,
      tax_amount: 64.86,
      vat_id: 'IE8473625E',
      iban: 'IE02 AIBK 9311 5212 3456 79',
      line_items: [
        { description: 'Hand-turned bowl, ash', quantity: 6, unit_price: 28, amount: 168 },
        { description: 'Soy wax candle, heather', quantity: 12, unit_price: 9.5, amount: 114 },
        { description: 'Local history book (hardback)', quantity: 5, unit_price: 18, amount: 90 },
      ],
    },
  },
  {
    name: 'UK: seller only as a large logo line, "Client" heading, "14-Mar-2025" dates, hours/rate table, VAT number in the footer without the name',
    pages: [
      [
        L(50, 40, 'Fenwick & Hale', 26, true),
        L(50, 72, 'Interior Design · 14 Kings Road · Brighton BN1 2FA', 8),
        L(400, 45, 'INVOICE', 18, true),
        ...row(72, [400, 'Number'], [470, 'FH-0392']),
        ...row(84, [400, 'Date'], [470, '14-Mar-2025']),
        ...row(96, [400, 'Due'], [470, '13-Apr-2025']),
        L(50, 130, 'Client', 9, true),
        ...block(50, 142, ['Dr. Amelia Rowe', '3 Regency Square', 'Brighton BN1 2FG']),
        ...row(220, [50, 'Item'], [360, 'Hours', 'r'], [450, 'Rate', 'r'], [545, 'Total', 'r']),
        ...row(236, [50, 'Design consultation'], [360, '4', 'r'], [450, '85.00', 'r'], [545, '340.00', 'r']),
        ...row(250, [50, 'Mood boards and sourcing'], [360, '6', 'r'], [450, '85.00', 'r'], [545, '510.00', 'r']),
        ...row(286, [380, 'Subtotal'], [545, '£850.00', 'r']),
        ...row(298, [380, 'VAT 20%'], [545, '£170.00', 'r']),
        L(380, 312, 'Total', 9, true),
        R(545, 312, '£1,020.00', 9, true),
        L(50, 780, 'VAT reg. GB 318 2749 56 · Sort code 60-16-13 · Account 31926819', 7),
      ],
    ],
    want: {
      invoice_number: 'FH-0392',
      invoice_date: '2025-03-14',
      due_date: '2025-04-13',
      seller_name: 'Fenwick & Hale',
      buyer_name: 'Dr. Amelia Rowe',
      currency: 'GBP',
      total_amount: 1020,
      net_amount: 850,
      tax_amount: 170,
      vat_id: 'GB 318 2749 56',
      line_items: [
        { description: 'Design consultation', quantity: 4, unit_price: 85, amount: 340 },
        { description: 'Mood boards and sourcing', quantity: 6, unit_price: 85, amount: 510 },
      ],
    },
  },
  {
    name: 'HU: "Számla sorszáma", Eladó / Vevő, "2025.03.14." dates, Nettó / ÁFA / Bruttó columns, "Fizetendő" in Ft',
    layout: true,
    pages: [
      [
        L(50, 45, 'SZÁMLA', 18, true),
        L(50, 80, 'Eladó', 9, true),
        ...block(50, 92, ['Duna Nyomda Kft.', 'Váci út 45.', '1134 Budapest', 'Adószám: 12345678-2-41', 'Közösségi adószám: HU12345678']),
        L(320, 80, 'Vevő', 9, true),
        ...block(320, 92, ['Balaton Borház Bt.', 'Fő utca 12.', '8230 Balatonfüred', 'Adószám: 23456789-1-19']),
        ...row(170, [50, 'Számla sorszáma:'], [170, 'DN-2025/0142']),
        ...row(182, [50, 'Kiállítás dátuma:'], [170, '2025.03.14.']),
        ...row(194, [50, 'Teljesítés dátuma:'], [170, '2025.03.12.']),
        ...row(206, [50, 'Fizetési határidő:'], [170, '2025.03.29.']),
        ...row(240, [50, 'Megnevezés'], [280, 'Menny.', 'r'], [340, 'Egységár', 'r'], [420, 'Nettó érték', 'r'], [460, 'ÁFA', 'r'], [545, 'Bruttó érték', 'r']),
        ...row(256, [50, 'Boros címke, 4 szín'], [280, '5000', 'r'], [340, '12', 'r'], [420, '60 000', 'r'], [460, '27%', 'r'], [545, '76 200', 'r']),
        ...row(270, [50, 'Grafikai tervezés'], [280, '1', 'r'], [340, '45 000', 'r'], [420, '45 000', 'r'], [460, '27%', 'r'], [545, '57 150', 'r']),
        ...row(306, [360, 'Nettó összesen'], [545, '105 000 Ft', 'r']),
        ...row(318, [360, 'ÁFA összesen'], [545, '28 350 Ft', 'r']),
        L(360, 332, 'Fizetendő', 9, true),
        R(545, 332, '133 350 Ft', 9, true),
        L(50, 380, 'Bankszámla: 11773016-11111018-00000000 · IBAN HU42 1177 3016 1111 1018 0000 0000'),
      ],
    ],
    want: {
      invoice_number: 'DN-2025/0142',
      invoice_date: '2025-03-14',
      due_date: '2025-03-29',
      seller_name: 'Duna Nyomda Kft.',
      buyer_name: 'Balaton Borház Bt.',
      currency: 'HUF',
      total_amount: 133350,
      net_amount: 105000,
      tax_amount: 28350,
      vat_id: 'HU12345678',
      iban: 'HU42 1177 3016 1111 1018 0000 0000',
      line_items: [
        { description: 'Boros címke, 4 szín', quantity: 5000, unit_price: 12, amount: 60000 },
        { description: 'Grafikai tervezés', quantity: 1, unit_price: 45000, amount: 45000 },
      ],
    },
  },
  {
    name: 'DE (SAP-style): trailing-minus discount in the totals, "Belegnummer"/"Belegdatum", "Warenempfänger" beside the "Rechnungsempfänger"',
    pages: [
      [
        L(50, 45, 'Hansa Industriebedarf GmbH', 14, true),
        ...block(50, 64, ['Am Sandtorkai 12', '20457 Hamburg'], 8),
        L(50, 110, 'Rechnungsempfänger', 8, true),
        ...block(50, 122, ['Werft Nordmole GmbH & Co. KG', 'Kaistraße 4', '24103 Kiel']),
        L(300, 110, 'Warenempfänger', 8, true),
        ...block(300, 122, ['Lager Rendsburg', 'Am Kreishafen 2', '24768 Rendsburg']),
        L(50, 190, 'Rechnung', 16, true),
        ...row(215, [50, 'Belegnummer'], [140, '9400012873']),
        ...row(227, [50, 'Belegdatum'], [140, '14.03.2025']),
        ...row(239, [50, 'Fällig am'], [140, '13.04.2025']),
        ...row(270, [50, 'Material'], [110, 'Bezeichnung'], [350, 'Menge', 'r'], [360, 'ME'], [450, 'Preis/ME', 'r'], [545, 'Wert', 'r']),
        ...row(286, [50, '100234'], [110, 'Sechskantschraube M12x60 8.8'], [350, '500', 'r'], [360, 'ST'], [450, '0,84', 'r'], [545, '420,00', 'r']),
        ...row(300, [50, '100871'], [110, 'Sicherungsmutter M12'], [350, '500', 'r'], [360, 'ST'], [450, '0,36', 'r'], [545, '180,00', 'r']),
        ...row(314, [50, '204410'], [110, 'Stahlseil 10 mm verzinkt'], [350, '120', 'r'], [360, 'M'], [450, '5,00', 'r'], [545, '600,00', 'r']),
        ...row(350, [360, 'Warenwert'], [545, '1.200,00', 'r']),
        ...row(362, [360, 'Rabatt 5 %'], [545, '60,00-', 'r']),
        ...row(374, [360, 'Nettobetrag'], [545, '1.140,00', 'r']),
        ...row(386, [360, 'MwSt 19 %'], [545, '216,60', 'r']),
        L(360, 400, 'Rechnungsbetrag EUR', 9, true),
        R(545, 400, '1.356,60', 9, true),
        L(50, 770, 'Hansa Industriebedarf GmbH · HRB 123456 Hamburg · USt-IdNr. DE287654321', 7),
        L(50, 780, 'Hamburger Sparkasse · IBAN DE44 3704 0044 0532 0130 0099', 7),
      ],
    ],
    want: {
      invoice_number: '9400012873',
      invoice_date: '2025-03-14',
      due_date: '2025-04-13',
      seller_name: 'Hansa Industriebedarf GmbH',
      buyer_name: 'Werft Nordmole GmbH & Co. KG',
      currency: 'EUR',
      total_amount: 1356.6,
      net_amount: 1140,
      tax_amount: 216.6,
      vat_id: 'DE287654321',
      iban: 'DE44 3704 0044 0532 0130 0099',
      line_items: [
        { description: 'Sechskantschraube M12x60 8.8', quantity: 500, unit_price: 0.84, amount: 420 },
        { description: 'Sicherungsmutter M12', quantity: 500, unit_price: 0.36, amount: 180 },
        { description: 'Stahlseil 10 mm verzinkt', quantity: 120, unit_price: 5, amount: 600 },
      ],
    },
  },
  {
    name: 'CH (FR): "CHE-… TVA", "Date de facturation", "Montant CHF" column header, "Total TTC" with apostrophe thousands',
    pages: [
      [
        L(50, 45, 'Horlogerie Jurassienne Sàrl', 14, true),
        ...block(50, 64, ['Rue du Marché 9', '2300 La Chaux-de-Fonds', 'CHE-123.456.788 TVA'], 8),
        L(330, 110, 'Adressé à', 8, true),
        ...block(330, 122, ['Bijouterie Lemaire SA', 'Rue du Rhône 40', '1204 Genève']),
        L(50, 180, 'Facture n° 25-0087', 14, true),
        ...row(202, [50, 'Date de facturation :'], [160, '14.03.2025']),
        ...row(214, [50, 'Payable jusqu\'au :'], [160, '13.04.2025']),
        ...row(250, [50, 'Désignation'], [320, 'Quantité', 'r'], [420, 'Prix unitaire', 'r'], [545, 'Montant CHF', 'r']),
        ...row(266, [50, 'Révision mouvement automatique'], [320, '3', 'r'], [420, '380.00', 'r'], [545, '1\'140.00', 'r']),
        ...row(280, [50, 'Remplacement verre saphir'], [320, '2', 'r'], [420, '145.00', 'r'], [545, '290.00', 'r']),
        ...row(316, [380, 'Total HT'], [545, '1\'430.00', 'r']),
        ...row(328, [380, 'TVA 8.1 %'], [545, '115.83', 'r']),
        L(380, 342, 'Total TTC', 9, true),
        R(545, 342, '1\'545.83', 9, true),
        L(50, 390, 'IBAN CH24 0483 5083 1652 1010'),
      ],
    ],
    want: {
      invoice_number: '25-0087',
      invoice_date: '2025-03-14',
      due_date: '2025-04-13',
      seller_name: 'Horlogerie Jurassienne Sàrl',
      buyer_name: 'Bijouterie Lemaire SA',
      currency: 'CHF',
      total_amount: 1545.83,
      net_amount: 1430,
      tax_amount: 115.83,
      vat_id: 'CHE-123.456.788 TVA',
      iban: 'CH24 0483 5083 1652 1010',
      line_items: [
        { description: 'Révision mouvement automatique', quantity: 3, unit_price: 380, amount: 1140 },
        { description: 'Remplacement verre saphir', quantity: 2, unit_price: 145, amount: 290 },
      ],
    },
  },
  {
    name: 'EN (UK) two pages: items fill page 1 to the foot and go on overleaf WITHOUT a repeated header, under a running head',
    pages: [
      [
        L(50, 45, 'Quillstone Office Supplies Ltd', 14, true),
        ...block(50, 64, ['7 Canal Wharf', 'Leeds LS11 5PS'], 8),
        ...row(45, [380, 'Invoice No:'], [460, 'QOS-88412']),
        ...row(57, [380, 'Invoice Date:'], [460, '14/03/2025']),
        ...row(69, [380, 'Due Date:'], [460, '13/04/2025']),
        L(50, 110, 'Invoice To:', 9, true),
        ...block(50, 122, ['Harrow & Finch Solicitors LLP', '22 Park Square East', 'Leeds LS1 2NE']),
        ...row(190, [50, 'Description'], [360, 'Qty', 'r'], [450, 'Unit Price', 'r'], [545, 'Amount', 'r']),
        ...longRows(0, 31, 206),
        L(270, 800, 'Page 1 of 2', 7),
      ],
      [
        L(50, 30, 'Quillstone Office Supplies Ltd · Invoice QOS-88412 (continued)', 7),
        ...longRows(31, 34, 60),
        ...row(120, [380, 'Subtotal'], [545, `£${en(longNet)}`, 'r']),
        ...row(132, [380, 'VAT 20%'], [545, `£${en(longTax)}`, 'r']),
        L(380, 146, 'Total', 9, true),
        R(545, 146, `£${en(Math.round((longNet + longTax) * 100) / 100)}`, 9, true),
        L(50, 780, 'Quillstone Office Supplies Ltd · VAT No. GB 654 3210 98 · IBAN GB29 NWBK 6016 1331 9268 19', 7),
        L(270, 800, 'Page 2 of 2', 7),
      ],
    ],
    want: {
      invoice_number: 'QOS-88412',
      invoice_date: '2025-03-14',
      due_date: '2025-04-13',
      seller_name: 'Quillstone Office Supplies Ltd',
      buyer_name: 'Harrow & Finch Solicitors LLP',
      currency: 'GBP',
      total_amount: Math.round((longNet + longTax) * 100) / 100,
      net_amount: longNet,
      tax_amount: longTax,
      vat_id: 'GB 654 3210 98',
      iban: 'GB29 NWBK 6016 1331 9268 19',
      line_items: longItems.map(([description, quantity, unit_price]) => ({ description, quantity, unit_price, amount: Math.round(quantity * unit_price * 100) / 100 })),
    },
  },
  {
    name: 'NO: Fakturanr. / Fakturadato / Forfallsdato, "Kunde" block, "Sum eks. mva", "Å betale NOK", Org.nr. … MVA under the letterhead',
    pages: [
      [
        L(50, 45, 'Fjordlys Elektro AS', 14, true),
        ...block(50, 64, ['Strandkaien 14', '5013 Bergen', 'Org.nr. NO 912 345 678 MVA'], 8),
        L(380, 45, 'FAKTURA', 18, true),
        ...row(72, [380, 'Fakturanr.'], [470, '10388']),
        ...row(84, [380, 'Fakturadato'], [470, '14.03.2025']),
        ...row(96, [380, 'Forfallsdato'], [470, '28.03.2025']),
        L(50, 130, 'Kunde', 9, true),
        ...block(50, 142, ['Bryggen Kafé AS', 'Bryggen 9', '5003 Bergen']),
        ...row(210, [50, 'Beskrivelse'], [330, 'Antall', 'r'], [400, 'Pris', 'r'], [545, 'Beløp', 'r']),
        ...row(226, [50, 'Utskifting av sikringsskap'], [330, '1', 'r'], [400, '8 900,00', 'r'], [545, '8 900,00', 'r']),
        ...row(240, [50, 'Arbeid elektriker (timer)'], [330, '5', 'r'], [400, '890,00', 'r'], [545, '4 450,00', 'r']),
        ...row(276, [380, 'Sum eks. mva'], [545, '13 350,00', 'r']),
        ...row(288, [380, 'MVA 25 %'], [545, '3 337,50', 'r']),
        L(380, 302, 'Å betale NOK', 9, true),
        R(545, 302, '16 687,50', 9, true),
        L(50, 340, 'Betales til konto 8601.11.17947 · IBAN NO93 8601 1117 947'),
      ],
    ],
    want: {
      invoice_number: '10388',
      invoice_date: '2025-03-14',
      due_date: '2025-03-28',
      seller_name: 'Fjordlys Elektro AS',
      buyer_name: 'Bryggen Kafé AS',
      currency: 'NOK',
      total_amount: 16687.5,
      net_amount: 13350,
      tax_amount: 3337.5,
      vat_id: 'NO 912 345 678 MVA',
      iban: 'NO93 8601 1117 947',
      line_items: [
        { description: 'Utskifting av sikringsskap', quantity: 1, unit_price: 8900, amount: 8900 },
        { description: 'Arbeid elektriker (timer)', quantity: 5, unit_price: 890, amount: 4450 },
      ],
    },
  },
  {
    name: 'FI: Laskun numero / Päiväys / Eräpäivä, "Asiakas" block, Määrä / À-hinta columns, Veroton yhteensä / ALV / Maksettava, ALV-tunniste',
    pages: [
      [
        L(50, 45, 'Järvisuo Puutyö Oy', 14, true),
        ...block(50, 64, ['Teollisuustie 4', '40320 Jyväskylä', 'ALV-tunniste FI23456789'], 8),
        L(380, 45, 'LASKU', 18, true),
        ...row(72, [380, 'Laskun numero'], [475, '1187']),
        ...row(84, [380, 'Päiväys'], [475, '14.3.2025']),
        ...row(96, [380, 'Eräpäivä'], [475, '28.3.2025']),
        L(50, 130, 'Asiakas', 9, true),
        ...block(50, 142, ['Kahvila Kaarna Ky', 'Kauppakatu 21', '40100 Jyväskylä']),
        ...row(210, [50, 'Nimike'], [330, 'Määrä', 'r'], [400, 'À-hinta', 'r'], [545, 'Yhteensä', 'r']),
        ...row(226, [50, 'Tammipöytä 80x120'], [330, '4', 'r'], [400, '420,00', 'r'], [545, '1 680,00', 'r']),
        ...row(240, [50, 'Penkki, tammi'], [330, '8', 'r'], [400, '165,00', 'r'], [545, '1 320,00', 'r']),
        ...row(276, [360, 'Veroton yhteensä'], [545, '3 000,00', 'r']),
        ...row(288, [360, 'ALV 25,5 %'], [545, '765,00', 'r']),
        L(360, 302, 'Maksettava yhteensä EUR', 9, true),
        R(545, 302, '3 765,00', 9, true),
        L(50, 340, 'Tilinumero IBAN FI50 4001 2345 6789 01'),
      ],
    ],
    want: {
      invoice_number: '1187',
      invoice_date: '2025-03-14',
      due_date: '2025-03-28',
      seller_name: 'Järvisuo Puutyö Oy',
      buyer_name: 'Kahvila Kaarna Ky',
      currency: 'EUR',
      total_amount: 3765,
      net_amount: 3000,
      tax_amount: 765,
      vat_id: 'FI23456789',
      iban: 'FI50 4001 2345 6789 01',
      line_items: [
        { description: 'Tammipöytä 80x120', quantity: 4, unit_price: 420, amount: 1680 },
        { description: 'Penkki, tammi', quantity: 8, unit_price: 165, amount: 1320 },
      ],
    },
  },
  {
    name: 'Export commercial invoice: "Seller:" / "Buyer:" labels, "2025.03.14" date, currency only in the column headers "(USD)", no tax',
    pages: [
      [
        L(200, 40, 'COMMERCIAL INVOICE', 16, true),
        L(50, 80, 'Seller:', 9, true),
        ...block(50, 92, ['Lianhua Precision Parts Co., Ltd.', 'No. 88 Keji Road, Nanshan District', 'Shenzhen 518057, China']),
        L(50, 140, 'Buyer:', 9, true),
        ...block(50, 152, ['Nordic Gadget House AB', 'Sveavägen 40', '111 34 Stockholm, Sweden']),
        ...row(80, [360, 'Invoice No.:'], [440, 'LH20250314-01']),
        ...row(92, [360, 'Date:'], [440, '2025.03.14']),
        ...row(104, [360, 'Terms:'], [440, 'FOB Shenzhen']),
        ...row(220, [50, 'Item No.'], [110, 'Description of Goods'], [340, 'Qty (pcs)', 'r'], [440, 'Unit Price (USD)', 'r'], [545, 'Amount (USD)', 'r']),
        ...row(236, [50, 'LP-2201'], [110, 'Aluminium phone stand'], [340, '2,000', 'r'], [440, '3.15', 'r'], [545, '6,300.00', 'r']),
        ...row(250, [50, 'LP-3140'], [110, 'USB-C hub, 4 ports'], [340, '1,200', 'r'], [440, '5.05', 'r'], [545, '6,060.00', 'r']),
        L(340, 286, 'TOTAL', 9, true),
        R(545, 286, '12,360.00', 9, true),
        L(50, 320, 'Say total: US dollars twelve thousand three hundred sixty only'),
        L(50, 334, 'Beneficiary bank: Bank of Example, Shenzhen Branch · SWIFT EXAMCNSH · A/C 4420 1188 0000 2231'),
      ],
    ],
    want: {
      invoice_number: 'LH20250314-01',
      invoice_date: '2025-03-14',
      seller_name: 'Lianhua Precision Parts Co., Ltd.',
      buyer_name: 'Nordic Gadget House AB',
      currency: 'USD',
      total_amount: 12360,
      line_items: [
        { description: 'Aluminium phone stand', quantity: 2000, unit_price: 3.15, amount: 6300 },
        { description: 'USB-C hub, 4 ports', quantity: 1200, unit_price: 5.05, amount: 6060 },
      ],
    },
  },
  {
    name: 'DE: "Lieferadresse" block left and "Rechnungsadresse" block right — the buyer is the billing address',
    pages: [
      [
        L(50, 45, 'Gartenbau Wiesengrund GmbH', 14, true),
        ...block(50, 64, ['Am Anger 3 · 04109 Leipzig', 'USt-IdNr. DE298765431'], 8),
        L(50, 110, 'Lieferadresse', 8, true),
        ...block(50, 122, ['Baustelle Wohnpark Süd', 'Prager Straße 200', '04299 Leipzig']),
        L(330, 110, 'Rechnungsadresse', 8, true),
        ...block(330, 122, ['Immobilien Saxonia GmbH', 'Markt 10', '04109 Leipzig']),
        L(50, 190, 'Rechnung', 16, true),
        ...row(215, [50, 'Rechnungsnummer:'], [150, 'GW-25-0311']),
        ...row(227, [50, 'Rechnungsdatum:'], [150, '14.03.2025']),
        ...row(239, [50, 'Fällig bis:'], [150, '28.03.2025']),
        ...row(270, [50, 'Leistung'], [330, 'Menge', 'r'], [430, 'Einzelpreis', 'r'], [545, 'Gesamt', 'r']),
        ...row(286, [50, 'Rollrasen verlegt (m²)'], [330, '240', 'r'], [430, '9,50', 'r'], [545, '2.280,00', 'r']),
        ...row(300, [50, 'Hainbuchenhecke, 1 m'], [330, '60', 'r'], [430, '14,00', 'r'], [545, '840,00', 'r']),
        ...row(336, [380, 'Nettobetrag'], [545, '3.120,00 €', 'r']),
        ...row(348, [380, 'USt. 19 %'], [545, '592,80 €', 'r']),
        L(380, 362, 'Gesamtbetrag', 9, true),
        R(545, 362, '3.712,80 €', 9, true),
        L(50, 400, 'Bitte überweisen Sie den Betrag auf IBAN DE86 5007 0010 0123 4567 8901.'),
      ],
    ],
    want: {
      invoice_number: 'GW-25-0311',
      invoice_date: '2025-03-14',
      due_date: '2025-03-28',
      seller_name: 'Gartenbau Wiesengrund GmbH',
      buyer_name: 'Immobilien Saxonia GmbH',
      currency: 'EUR',
      total_amount: 3712.8,
      net_amount: 3120,
      tax_amount: 592.8,
      vat_id: 'DE298765431',
      iban: 'DE86 5007 0010 0123 4567 8901',
      line_items: [
        { description: 'Rollrasen verlegt (m²)', quantity: 240, unit_price: 9.5, amount: 2280 },
        { description: 'Hainbuchenhecke, 1 m', quantity: 60, unit_price: 14, amount: 840 },
      ],
    },
  },
  {
    name: 'US credit memo: amounts in parentheses on the lines and in the totals, "Credit Memo #", the original invoice named',
    pages: [
      [
        L(50, 45, 'Lakeshore Office Furniture Inc.', 14, true),
        ...block(50, 64, ['2600 N Clark St', 'Chicago, IL 60614'], 8),
        L(380, 45, 'CREDIT MEMO', 16, true),
        ...row(70, [380, 'Credit Memo #:'], [470, 'CM-1187']),
        ...row(82, [380, 'Date:'], [470, '03/14/2025']),
        ...row(94, [380, 'Original Invoice:'], [470, '10422']),
        L(50, 130, 'Bill To:', 9, true),
        ...block(50, 142, ['Wrigleyville Dental Partners', '3400 N Sheffield Ave', 'Chicago, IL 60657']),
        ...row(210, [50, 'Description'], [330, 'Qty', 'r'], [440, 'Unit Price', 'r'], [545, 'Amount', 'r']),
        ...row(226, [50, 'Returned task chair, damaged'], [330, '2', 'r'], [440, '189.00', 'r'], [545, '(378.00)', 'r']),
        ...row(240, [50, 'Restocking fee waived'], [330, '1', 'r'], [440, '25.00', 'r'], [545, '(25.00)', 'r']),
        ...row(276, [380, 'Subtotal'], [545, '(403.00)', 'r']),
        ...row(288, [380, 'Sales Tax 10.25%'], [545, '(41.31)', 'r']),
        L(380, 302, 'Total Credit', 9, true),
        R(545, 302, '($444.31)', 9, true),
      ],
    ],
    want: {
      invoice_number: 'CM-1187',
      invoice_date: '2025-03-14',
      seller_name: 'Lakeshore Office Furniture Inc.',
      buyer_name: 'Wrigleyville Dental Partners',
      currency: 'USD',
      total_amount: -444.31,
      net_amount: -403,
      tax_amount: -41.31,
      line_items: [
        { description: 'Returned task chair, damaged', quantity: 2, unit_price: 189, amount: -378 },
        { description: 'Restocking fee waived', quantity: 1, unit_price: 25, amount: -25 },
      ],
    },
  },
  {
    name: 'AT: "Kunde:" with the name on the same line, a returned item with a trailing minus, "Zahlbar bis", ATU number',
    pages: [
      [
        L(50, 45, 'Sportwelt Tirol GmbH', 14, true),
        ...block(50, 64, ['Museumstraße 22', '6020 Innsbruck', 'UID: ATU65432198'], 8),
        ...row(45, [380, 'Rechnungs-Nr.'], [470, 'SW-2025-0318']),
        ...row(57, [380, 'Rechnungsdatum'], [470, '14.03.2025']),
        ...row(69, [380, 'Zahlbar bis'], [470, '28.03.2025']),
        L(50, 120, 'Kunde: Skischule Patscherkofel OG'),
        ...block(50, 132, ['Römerstraße 81', '6082 Patsch']),
        L(50, 180, 'Rechnung', 16, true),
        ...row(210, [50, 'Bezeichnung'], [330, 'Menge', 'r'], [430, 'Einzelpreis', 'r'], [545, 'Betrag', 'r']),
        ...row(226, [50, 'Tourenski Leihset Saison'], [330, '6', 'r'], [430, '180,00', 'r'], [545, '1.080,00', 'r']),
        ...row(240, [50, 'Lawinenpiepser'], [330, '6', 'r'], [430, '65,00', 'r'], [545, '390,00', 'r']),
        ...row(254, [50, 'Retoure Lawinenpiepser'], [330, '1', 'r'], [430, '65,00', 'r'], [545, '65,00-', 'r']),
        ...row(290, [380, 'Summe netto'], [545, '1.405,00', 'r']),
        ...row(302, [380, 'USt 20 %'], [545, '281,00', 'r']),
        L(380, 316, 'Gesamtbetrag EUR', 9, true),
        R(545, 316, '1.686,00', 9, true),
        L(50, 360, 'Bankverbindung: Tiroler Sparkasse · IBAN AT34 1904 3002 3457 3202'),
      ],
    ],
    want: {
      invoice_number: 'SW-2025-0318',
      invoice_date: '2025-03-14',
      due_date: '2025-03-28',
      seller_name: 'Sportwelt Tirol GmbH',
      buyer_name: 'Skischule Patscherkofel OG',
      currency: 'EUR',
      total_amount: 1686,
      net_amount: 1405,
      tax_amount: 281,
      vat_id: 'ATU65432198',
      iban: 'AT34 1904 3002 3457 3202',
      line_items: [
        { description: 'Tourenski Leihset Saison', quantity: 6, unit_price: 180, amount: 1080 },
        { description: 'Lawinenpiepser', quantity: 6, unit_price: 65, amount: 390 },
        { description: 'Retoure Lawinenpiepser', quantity: 1, unit_price: 65, amount: -65 },
      ],
    },
  },
  {
    name: 'EN (UK): "Sold to:" inline, descriptions wrapping over three lines, unit, discount-% and VAT-rate columns',
    pages: [
      [
        L(50, 45, 'Hollowbrook Joinery Ltd', 14, true),
        ...block(50, 64, ['Unit 3, Tannery Yard', 'Kendal LA9 4PQ'], 8),
        ...row(45, [380, 'Invoice No.'], [470, 'HJ-7702']),
        ...row(57, [380, 'Date'], [470, '14/03/2025']),
        ...row(69, [380, 'Due'], [470, '13/04/2025']),
        L(50, 120, 'Sold to: Fellside Holiday Cottages Ltd'),
        ...block(50, 132, ['Lake Road', 'Windermere LA23 2BJ']),
        ...row(190, [50, 'Description'], [300, 'Qty', 'r'], [310, 'Unit'], [390, 'Price', 'r'], [430, 'Disc %', 'r'], [470, 'VAT', 'r'], [545, 'Net', 'r']),
        ...row(206, [50, 'Oak kitchen worktop, oiled,'], [300, '3', 'r'], [310, 'm'], [390, '240.00', 'r'], [430, '10', 'r'], [470, '20%', 'r'], [545, '648.00', 'r']),
        L(50, 218, 'cut to template with two'),
        L(50, 230, 'sink cut-outs'),
        ...row(246, [50, 'Fitting on site'], [300, '6', 'r'], [310, 'hrs'], [390, '45.00', 'r'], [470, '20%', 'r'], [545, '270.00', 'r']),
        ...row(282, [380, 'Net total'], [545, '918.00', 'r']),
        ...row(294, [380, 'VAT 20%'], [545, '183.60', 'r']),
        L(380, 308, 'Invoice total', 9, true),
        R(545, 308, '£1,101.60', 9, true),
        L(50, 780, 'Hollowbrook Joinery Ltd · Registered in England No. 10987654 · VAT No. GB 275 1938 46', 7),
      ],
    ],
    want: {
      invoice_number: 'HJ-7702',
      invoice_date: '2025-03-14',
      due_date: '2025-04-13',
      seller_name: 'Hollowbrook Joinery Ltd',
      buyer_name: 'Fellside Holiday Cottages Ltd',
      currency: 'GBP',
      total_amount: 1101.6,
      net_amount: 918,
      tax_amount: 183.6,
      vat_id: 'GB 275 1938 46',
      line_items: [
        { description: 'Oak kitchen worktop, oiled, cut to template with two sink cut-outs', quantity: 3, unit_price: 240, amount: 648 },
        { description: 'Fitting on site', quantity: 6, unit_price: 45, amount: 270 },
      ],
    },
  },
  {
    name: 'SE: OCR payment reference and "Vår referens" / "Er referens" persons beside the meta, Bankgiro, "Totalt att betala"',
    pages: [
      [
        L(50, 45, 'Norrsken Städ & Service AB', 14, true),
        ...block(50, 64, ['Storgatan 19', '903 26 Umeå'], 8),
        L(380, 45, 'Faktura', 18, true),
        ...row(72, [380, 'Fakturanr'], [470, '52231']),
        ...row(84, [380, 'Fakturadatum'], [470, '2025-03-14']),
        ...row(96, [380, 'Förfallodatum'], [470, '2025-04-13']),
        ...row(108, [380, 'Vår referens'], [470, 'Lena Holm']),
        ...row(120, [380, 'Er referens'], [470, 'Johan Berg']),
        ...block(50, 120, ['Umeå Tandvårdsklinik AB', 'Rådhusesplanaden 8', '903 28 Umeå']),
        ...row(190, [50, 'Benämning'], [330, 'Antal', 'r'], [430, 'À-pris', 'r'], [545, 'Summa', 'r']),
        ...row(206, [50, 'Kontorsstädning februari'], [330, '1', 'r'], [430, '6 400,00', 'r'], [545, '6 400,00', 'r']),
        ...row(220, [50, 'Fönsterputs'], [330, '12', 'r'], [430, '150,00', 'r'], [545, '1 800,00', 'r']),
        ...row(256, [380, 'Netto'], [545, '8 200,00', 'r']),
        ...row(268, [380, 'Moms 25 %'], [545, '2 050,00', 'r']),
        L(380, 282, 'Totalt att betala', 9, true),
        R(545, 282, '10 250,00 SEK', 9, true),
        ...row(320, [50, 'Bankgiro'], [130, '5050-1055']),
        ...row(332, [50, 'OCR-nummer'], [130, '5223147']),
        L(50, 780, 'Norrsken Städ & Service AB · Org.nr 559123-4567 · Momsreg.nr SE559123456701 · Innehar F-skattsedel', 7),
      ],
    ],
    want: {
      invoice_number: '52231',
      invoice_date: '2025-03-14',
      due_date: '2025-04-13',
      seller_name: 'Norrsken Städ & Service AB',
      buyer_name: 'Umeå Tandvårdsklinik AB',
      currency: 'SEK',
      total_amount: 10250,
      net_amount: 8200,
      tax_amount: 2050,
      vat_id: 'SE559123456701',
      line_items: [
        { description: 'Kontorsstädning februari', quantity: 1, unit_price: 6400, amount: 6400 },
        { description: 'Fönsterputs', quantity: 12, unit_price: 150, amount: 1800 },
      ],
    },
  },
  {
    name: 'EN (US): "Bill To" block with an "Attn:" line under the company, "P.O. #" and "Account #" beside the invoice number, "Remit to" the seller',
    pages: [
      [
        L(50, 45, 'Ironwood Lab Supply Co.', 14, true),
        ...block(50, 64, ['77 Foundry Street', 'Pittsburgh, PA 15222'], 8),
        L(400, 45, 'INVOICE', 18, true),
        ...row(72, [380, 'Invoice #'], [470, '300417']),
        ...row(84, [380, 'Account #'], [470, 'C-2290']),
        ...row(96, [380, 'P.O. #'], [470, '4500018833']),
        ...row(108, [380, 'Invoice Date'], [470, '03/14/2025']),
        ...row(120, [380, 'Due Date'], [470, '04/13/2025']),
        L(50, 130, 'Bill To', 9, true),
        ...block(50, 142, ['Allegheny BioAnalytics LLC', 'Attn: Accounts Payable', '500 Technology Dr', 'Pittsburgh, PA 15219']),
        ...row(220, [50, 'Item'], [120, 'Description'], [360, 'Qty', 'r'], [450, 'Unit Price', 'r'], [545, 'Ext. Price', 'r']),
        ...row(236, [50, 'PT-1000'], [120, 'Pipette tips 1000 ul, rack of 96'], [360, '40', 'r'], [450, '8.75', 'r'], [545, '350.00', 'r']),
        ...row(250, [50, 'NG-50'], [120, 'Nitrile gloves, size M, box of 100'], [360, '25', 'r'], [450, '11.20', 'r'], [545, '280.00', 'r']),
        ...row(286, [380, 'Subtotal'], [545, '630.00', 'r']),
        ...row(298, [380, 'Sales Tax 7%'], [545, '44.10', 'r']),
        ...row(310, [380, 'Freight'], [545, '25.00', 'r']),
        L(380, 324, 'Total Due', 9, true),
        R(545, 324, '$699.10', 9, true),
        L(50, 360, 'Remit to: Ironwood Lab Supply Co., PO Box 6421, Pittsburgh, PA 15230'),
      ],
    ],
    want: {
      invoice_number: '300417',
      invoice_date: '2025-03-14',
      due_date: '2025-04-13',
      seller_name: 'Ironwood Lab Supply Co.',
      buyer_name: 'Allegheny BioAnalytics LLC',
      currency: 'USD',
      total_amount: 699.1,
      net_amount: 630,
      tax_amount: 44.1,
      line_items: [
        { description: 'Pipette tips 1000 ul, rack of 96', quantity: 40, unit_price: 8.75, amount: 350 },
        { description: 'Nitrile gloves, size M, box of 100', quantity: 25, unit_price: 11.2, amount: 280 },
      ],
    },
  },
  {
    name: 'EN (UK) two pages: "Carried forward" under the items on page 1, "Brought forward" at the top of page 2, no repeated header',
    pages: [
      [
        L(50, 45, 'Quillstone Office Supplies Ltd', 14, true),
        ...block(50, 64, ['7 Canal Wharf', 'Leeds LS11 5PS'], 8),
        ...row(45, [380, 'Invoice No:'], [460, 'QOS-88519']),
        ...row(57, [380, 'Invoice Date:'], [460, '21/03/2025']),
        L(50, 110, 'Invoice To:', 9, true),
        ...block(50, 122, ['Harrow & Finch Solicitors LLP', '22 Park Square East', 'Leeds LS1 2NE']),
        ...row(190, [50, 'Description'], [360, 'Qty', 'r'], [450, 'Unit Price', 'r'], [545, 'Amount', 'r']),
        ...longRows(0, 30, 206),
        ...row(690, [380, 'Carried forward'], [545, en(Math.round(longItems.slice(0, 30).reduce((s, [, q, p]) => s + Math.round(q * p * 100), 0)) / 100), 'r']),
        L(270, 800, 'Page 1 of 2', 7),
      ],
      [
        L(50, 30, 'Quillstone Office Supplies Ltd · Invoice QOS-88519 (continued)', 7),
        ...row(50, [380, 'Brought forward'], [545, en(Math.round(longItems.slice(0, 30).reduce((s, [, q, p]) => s + Math.round(q * p * 100), 0)) / 100), 'r']),
        ...longRows(30, 34, 70),
        ...row(140, [380, 'Subtotal'], [545, `£${en(longNet)}`, 'r']),
        ...row(152, [380, 'VAT 20%'], [545, `£${en(longTax)}`, 'r']),
        L(380, 166, 'Total', 9, true),
        R(545, 166, `£${en(Math.round((longNet + longTax) * 100) / 100)}`, 9, true),
        L(50, 780, 'Quillstone Office Supplies Ltd · VAT No. GB 654 3210 98 · IBAN GB29 NWBK 6016 1331 9268 19', 7),
        L(270, 800, 'Page 2 of 2', 7),
      ],
    ],
    want: {
      invoice_number: 'QOS-88519',
      invoice_date: '2025-03-21',
      seller_name: 'Quillstone Office Supplies Ltd',
      buyer_name: 'Harrow & Finch Solicitors LLP',
      currency: 'GBP',
      total_amount: Math.round((longNet + longTax) * 100) / 100,
      net_amount: longNet,
      tax_amount: longTax,
      vat_id: 'GB 654 3210 98',
      iban: 'GB29 NWBK 6016 1331 9268 19',
      line_items: longItems.map(([description, quantity, unit_price]) => ({ description, quantity, unit_price, amount: Math.round(quantity * unit_price * 100) / 100 })),
    },
  },
  {
    name: 'IT e-invoice courtesy copy: "Cedente/prestatore" and "Cessionario/committente" blocks each with a Partita IVA, "Numero documento", "Totale documento"',
    pages: [
      [
        L(50, 40, 'Copia di cortesia della fattura elettronica', 8),
        L(50, 60, 'Cedente/prestatore (fornitore)', 8, true),
        ...block(50, 72, ['Oleificio Colli Senesi S.r.l.', 'Partita IVA: IT01987650524', 'Strada di Pieve 12', '53100 Siena (SI)']),
        L(320, 60, 'Cessionario/committente (cliente)', 8, true),
        ...block(320, 72, ['Trattoria Il Ponte di Mezzo S.n.c.', 'Partita IVA: IT05566770481', 'Via del Ponte 3', '50127 Firenze (FI)']),
        ...row(150, [50, 'Tipologia documento'], [160, 'Numero documento'], [270, 'Data documento'], [380, 'Codice destinatario']),
        ...row(162, [50, 'TD01 Fattura'], [160, '47'], [270, '14-03-2025'], [380, 'M5UXCR1']),
        ...row(200, [50, 'Descrizione'], [290, 'Quantità', 'r'], [370, 'Prezzo unitario', 'r'], [390, 'UM'], [460, '%IVA', 'r'], [545, 'Prezzo totale', 'r']),
        ...row(216, [50, 'Olio extravergine 5 l'], [290, '12', 'r'], [370, '54,00', 'r'], [390, 'pz'], [460, '4,00', 'r'], [545, '648,00', 'r']),
        ...row(230, [50, 'Olio extravergine 0,75 l'], [290, '24', 'r'], [370, '11,50', 'r'], [390, 'pz'], [460, '4,00', 'r'], [545, '276,00', 'r']),
        ...row(266, [360, 'Totale imponibile'], [545, '924,00', 'r']),
        ...row(278, [360, 'Totale imposta'], [545, '36,96', 'r']),
        L(360, 292, 'Totale documento', 9, true),
        R(545, 292, '960,96', 9, true),
        ...row(330, [50, 'Modalità pagamento'], [150, 'IBAN'], [350, 'Data scadenza'], [450, 'Importo']),
        ...row(342, [50, 'MP05 Bonifico'], [150, 'IT60 X054 2811 1010 0000 0123 456'], [350, '13-04-2025'], [450, '960,96']),
      ],
    ],
    want: {
      invoice_number: '47',
      invoice_date: '2025-03-14',
      due_date: '2025-04-13',
      seller_name: 'Oleificio Colli Senesi S.r.l.',
      buyer_name: 'Trattoria Il Ponte di Mezzo S.n.c.',
      total_amount: 960.96,
      net_amount: 924,
      tax_amount: 36.96,
      vat_id: 'IT01987650524',
      iban: 'IT60 X054 2811 1010 0000 0123 456',
      line_items: [
        { description: 'Olio extravergine 5 l', quantity: 12, unit_price: 54, amount: 648 },
        { description: 'Olio extravergine 0,75 l', quantity: 24, unit_price: 11.5, amount: 276 },
      ],
    },
  },
];

describe('more synthetic invoice layouts through the whole engine', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const out = c.layout
      ? extractFromLayout(layoutOf(c.pages), invoiceSchema)
      : await engine.extract({ bytes: await pdfOf(c.pages), mimeType: 'application/pdf', filename: 'invoice.pdf' }, invoiceSchema);
    expect(out.result).toEqual(c.want);
  });
});
