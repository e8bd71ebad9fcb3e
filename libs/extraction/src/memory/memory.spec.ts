import { describe, expect, it } from '@jest/globals';
import { inferContext } from '../document.context.js';
import type { ExtractionSchema } from '../engine.types.js';
import { extractFromLayout } from '../extraction.engine.js';
import type { DocLayout } from '../layout/layout.types.js';
import { L, layoutOf, R, type Item } from '../testing/invoice-layout.test-helper.js';
import { learnFromLayout } from './exemplar.builder.js';
import { bestExemplar, fingerprintOf, MATCH_MIN, similarity } from './fingerprint.js';
import type { LayoutExemplar } from './memory.types.js';
import { textDigest } from './value.recall.js';

// Invented layouts: a supplier that prints its reference under an odd label ("Our ref") far from the usual places,
// and a second, unrelated supplier.
const schema: ExtractionSchema = {
  fields: [
    { key: 'invoice_number', label: 'Invoice number', data_type: 'string' },
    { key: 'invoice_date', label: 'Invoice date', data_type: 'date' },
    { key: 'total_amount', label: 'Total', data_type: 'number' },
  ],
};

function tealShop(ref: string, date: string, total: string, extra: Item[] = []): DocLayout {
  return layoutOf([
    [
      L(40, 40, 'Teal Otter Supplies', 16, true),
      L(40, 62, 'Quay Road 9, Harbourtown'),
      L(40, 74, 'VAT DE304918276'),
      L(380, 120, 'Statement of goods'),
      L(380, 140, 'Our ref'),
      L(460, 140, ref),
      L(380, 152, 'Issued'),
      L(460, 152, date),
      L(40, 260, 'Widgets, assorted'),
      R(540, 260, '10.00'),
      ...extra,
      L(380, 700, 'To settle'),
      R(540, 700, total),
      L(40, 780, 'Thank you for shopping with Teal Otter Supplies'),
    ],
  ]);
}

function plumGarden(): DocLayout {
  return layoutOf([
    [
      L(300, 50, 'PLUM GARDEN CENTRE', 14, true),
      L(300, 70, 'Invoice'),
      L(40, 140, 'Invoice number: PG-77'),
      L(40, 152, 'Invoice date: 02.05.2024'),
      L(40, 300, 'Seedlings'),
      R(540, 300, '4.50'),
      L(380, 650, 'Total'),
      R(540, 650, '4.50'),
    ],
  ]);
}

function learn(doc: DocLayout, values: Record<string, unknown>, id = 'ex_teal'): LayoutExemplar {
  return { id, ...learnFromLayout(doc, schema.fields, values, inferContext(doc)) };
}

describe('layout memory: fingerprints', () => {
  it('finds two documents of one layout alike and another supplier unlike', () => {
    const a = fingerprintOf(tealShop('TO-1001', '03.04.2024', '10.00'));
    const b = fingerprintOf(tealShop('TO-2002', '17.06.2024', '25.00'));
    const other = fingerprintOf(plumGarden());
    expect(similarity(a, b)).toBeGreaterThanOrEqual(MATCH_MIN);
    expect(similarity(a, other)).toBeLessThan(MATCH_MIN);
  });

  it('keeps digests, not the printed identifiers', () => {
    const fp = fingerprintOf(tealShop('TO-1001', '03.04.2024', '10.00'));
    expect(fp.ids).toHaveLength(1);
    expect(JSON.stringify(fp)).not.toContain('304918276');
    expect(JSON.stringify(fp)).not.toMatch(/otter/i);
  });

  it('matches no exemplar for a document of another layout', () => {
    const ex = learn(tealShop('TO-1001', '03.04.2024', '10.00'), { invoice_number: 'TO-1001' });
    expect(bestExemplar(fingerprintOf(plumGarden()), [ex])).toBeUndefined();
  });
});

describe('layout memory: anchors', () => {
  it('remembers the label, direction and region of each corrected value', () => {
    const ex = learn(tealShop('TO-1001', '03.04.2024', '10.00'), {
      invoice_number: 'TO-1001',
      invoice_date: '2024-04-03',
      total_amount: 10,
    });
    const byKey = Object.fromEntries(ex.anchors.map((a) => [a.key, a]));
    // Labels are kept as digests of their lower-case words.
    expect(byKey.invoice_number).toMatchObject({ label: textDigest('our ref'), labelWords: 2, direction: 'right', page: 1, words: 1 });
    expect(byKey.invoice_date).toMatchObject({ label: textDigest('issued'), direction: 'right' });
    // The total is printed twice (the line and the sum): the anchor is the labelled summary.
    expect(byKey.total_amount).toMatchObject({ label: textDigest('to settle'), direction: 'right' });
    expect(byKey.total_amount!.region[1]).toBeGreaterThan(0.8);
  });

  it('replays the anchors on the next document of the layout and names the exemplar', () => {
    const ex = learn(tealShop('TO-1001', '03.04.2024', '10.00'), {
      invoice_number: 'TO-1001',
      invoice_date: '2024-04-03',
      total_amount: 10,
    });
    // The next document has more lines: the summary moved down, the reference stayed.
    const next = tealShop('TO-2002', '17.06.2024', '36.00', [L(40, 272, 'Gadgets'), R(540, 272, '26.00')]);
    const out = extractFromLayout(next, schema, { memory: [ex] });
    expect(out.result).toMatchObject({ invoice_number: 'TO-2002', invoice_date: '2024-06-17', total_amount: 36 });
    expect(out.memory).toEqual({
      exemplar_id: 'ex_teal',
      similarity: expect.any(Number),
      fields: expect.arrayContaining(['invoice_number']),
    });
    expect(out.fields.invoice_number!.provenance).toBe('memory');
  });

  it('leaves a document of another layout to the engine', () => {
    const ex = learn(tealShop('TO-1001', '03.04.2024', '10.00'), { invoice_number: 'TO-1001', total_amount: 10 });
    const out = extractFromLayout(plumGarden(), schema, { memory: [ex] });
    expect(out.memory).toBeUndefined();
    expect(out.result.invoice_number).toBe('PG-77');
  });

  it('ends a remembered name where the exemplar did (a legal form left out by the correction)', () => {
    const nameSchema: ExtractionSchema = { fields: [{ key: 'seller_name', label: 'Seller name', data_type: 'string' }] };
    const doc = (name: string) =>
      layoutOf([[L(40, 40, 'Supplier'), L(110, 40, `${name} Ltd`), L(40, 60, 'Quay Road 9'), L(300, 400, 'Thank you')]]);
    const first = doc('Amber Fox');
    const ex = { id: 'ex_fox', ...learnFromLayout(first, nameSchema.fields, { seller_name: 'Amber Fox' }, inferContext(first)) };
    expect(ex.anchors[0]).toMatchObject({ label: textDigest('supplier'), after: textDigest('ltd') });
    const out = extractFromLayout(doc('Amber Fox Trading'), nameSchema, { memory: [ex] });
    expect(out.result.seller_name).toBe('Amber Fox Trading');
  });

  it('recalls a confirmed shop name and address printed again without labels, wherever they moved, and keeps no text', () => {
    const receiptSchema: ExtractionSchema = {
      fields: [
        { key: 'company', label: 'Company name', data_type: 'string' },
        { key: 'address', label: 'Address', data_type: 'string' },
      ],
    };
    const receipt = (top: number, items: string[]) =>
      layoutOf([
        [
          L(60, top, 'MOSSGATE BAKEHOUSE'),
          L(60, top + 14, '12 Fernwick Lane,'),
          L(60, top + 28, 'Old Quarry Town'),
          ...items.map((t, i) => L(60, top + 60 + 14 * i, t)),
          L(60, top + 140, 'THANK YOU'),
        ],
      ]);
    const first = receipt(40, ['Rye loaf 4.20']);
    const values = { company: 'MOSSGATE BAKEHOUSE', address: '12 Fernwick Lane, Old Quarry Town' };
    const ex = { id: 'ex_bake', ...learnFromLayout(first, receiptSchema.fields, values, inferContext(first)) };
    expect(JSON.stringify(ex)).not.toMatch(/mossgate|fernwick/i);
    const out = extractFromLayout(receipt(90, ['Seed roll 1.10', 'Tea 2.00', 'Scone 1.80']), receiptSchema, { memory: [ex] });
    expect(out.result).toMatchObject(values);
    expect(out.memory).toMatchObject({ exemplar_id: 'ex_bake', fields: expect.arrayContaining(['company', 'address']) });
  });
});
