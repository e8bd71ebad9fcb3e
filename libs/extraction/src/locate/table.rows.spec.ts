import { describe, expect, it } from '@jest/globals';
import type { RowBand } from './table.bands.js';
import { continuesText, type RowRules } from './table.rows.js';
import { line, rows } from '../testing/row-bands.test-helper.js';

const labelled: RowRules = { numeric: new Set(), money: new Set(), columns: 3, firstKey: 'label', lh: 8 };

describe('table rows', () => {
  it('keeps a one-line cell centred between the two lines of its wrapped neighbours in one row', () => {
    // Row pitch 10; "300 (as / total)" wraps while "Compound B" and "1 000" sit on the middle line, half a pitch lower.
    const out = rows(
      [
        line(100, { label: 'Compound A', air: '50', water: '1' }),
        line(110, { water: '300 (as' }),
        line(115, { label: 'Compound B', air: '1 000' }),
        line(120, { water: 'total)' }),
        line(130, { label: 'Compound C', air: '-', water: '1' }),
      ],
      labelled,
    );
    expect(out).toEqual([
      { label: 'Compound A', air: '50', water: '1' },
      { water: '300 (as total)', label: 'Compound B', air: '1 000' },
      { label: 'Compound C', air: '-', water: '1' },
    ]);
  });

  it('joins a wrapped row label that reads on, but keeps a label-only row that does not', () => {
    const out = rows(
      [
        line(100, { label: 'Other areas including Planning,', n: '4.330' }),
        line(110, { label: 'Local roads and' }),
        line(120, { label: 'the Harbour' }),
        line(130, { label: 'Germany', n: '149' }),
        line(140, { label: 'Greece' }),
        line(150, { label: 'Maison Exemple', n: '14.9%' }),
        line(160, { label: '(Nordwind Kaffee)' }),
        line(170, { label: 'Ireland', n: '3' }),
      ],
      labelled,
    );
    expect(out.map((r) => r.label)).toEqual([
      'Other areas including Planning, Local roads and the Harbour',
      'Germany',
      'Greece',
      'Maison Exemple (Nordwind Kaffee)',
      'Ireland',
    ]);
  });

  it('sends lines above a vertically centred value down to it when the gap above them is wider', () => {
    // Rows separated by 8 units, the lines inside one row by 2: the first line of the second row is printed
    // above its (centred) number.
    const out = rows(
      [
        line(100, { label: 'Alpha', n: '1' }),
        line(116, { label: 'Beta gamma' }),
        line(126, { label: 'Delta', n: '2' }),
        line(136, { label: 'Epsilon' }),
        line(152, { label: 'Zeta', n: '3' }),
      ],
      { ...labelled, firstKey: 'n' },
    );
    expect(out).toEqual([
      { label: 'Alpha', n: '1' },
      { label: 'Beta gamma Delta Epsilon', n: '2' },
      { label: 'Zeta', n: '3' },
    ]);
  });

  it('makes a sub-row without a label that repeats the numbers of the row above a row of its own', () => {
    const out = rows(
      [
        line(100, { label: 'Asthma', kind: 'Count', m: '31', f: '22' }),
        line(114, { kind: 'Percentage', m: '6.3%', f: '4.4%' }),
        line(128, { label: 'Diabetes', kind: 'Count', m: '1', f: '1' }),
        line(142, { kind: 'Percentage', m: '0.2%', f: '0.2%' }),
      ],
      { ...labelled, columns: 4, lh: 9 },
    );
    expect(out).toHaveLength(4);
    expect(out[1]).toEqual({ kind: 'Percentage', m: '6.3%', f: '4.4%' });
  });

  it('drops label-only lines after the last row of values (notes, statistics, page numbers)', () => {
    const out = rows(
      [
        line(100, { label: 'Sore knee', a: '41', b: '132' }),
        line(110, { label: 'Tendinitis', a: '0', b: '7' }),
        line(120, { label: '2 χ = 18.02, v = 9, p = 0.013' }),
        line(140, { label: '172' }),
      ],
      labelled,
    );
    expect(out.map((r) => r.label)).toEqual(['Sore knee', 'Tendinitis']);
  });

  it('drops a note printed across the columns under the last row, and what follows it', () => {
    const figures: RowRules = { numeric: new Set(['a', 'b']), money: new Set(), columns: 3, firstKey: 'label', lh: 8 };
    const out = rows(
      [
        line(100, { label: 'North', a: '12', b: '30' }),
        line(110, { label: 'South', a: '7', b: '41' }),
        // "Test: z = 1.93, p =" runs from the label column into the first figure column without a gutter.
        { ...line(124, { label: 'Test: z = 1.93, p =', a: '0.054' }), spans: true },
        line(134, { label: 'computed on all cases' }),
      ],
      figures,
    );
    expect(out.map((r) => r.label)).toEqual(['North', 'South']);
  });

  it('keeps a last row whose cells sit apart, even when a row above was printed across the grid', () => {
    const figures: RowRules = { numeric: new Set(['a']), money: new Set(), columns: 2, firstKey: 'label', lh: 8 };
    const out = rows(
      [{ ...line(100, { label: 'Plain label', a: '3' }), spans: true }, line(110, { label: 'Other label', a: '4' })],
      figures,
    );
    expect(out).toHaveLength(2);
  });

  it('starts a sub-row where a one-token code column gets a second code, though the row label stays empty', () => {
    const codes: RowRules = { numeric: new Set(['n']), money: new Set(), columns: 4, firstKey: 'n', lh: 8 };
    const out = rows(
      [
        line(100, { n: '1', text: 'Work begun at', code: 'K1', sub: 'Plan changed' }),
        line(110, { text: 'the start' }),
        line(120, { code: 'K2', sub: 'Plan kept as' }),
        line(130, { sub: 'it was' }),
        line(140, { n: '2', text: 'Work begun late', code: 'L1', sub: 'Plan changed' }),
      ],
      codes,
    );
    expect(out).toEqual([
      { n: '1', text: 'Work begun at the start', code: 'K1', sub: 'Plan changed' },
      { code: 'K2', sub: 'Plan kept as it was' },
      { n: '2', text: 'Work begun late', code: 'L1', sub: 'Plan changed' },
    ]);
  });

  it('joins a text row wrapped over two columns to its row where every row fills the first column', () => {
    const texts: RowRules = { numeric: new Set(), money: new Set(), columns: 4, firstKey: 'id', lh: 8 };
    const out = rows(
      [
        line(100, { id: 'Q-1', need: 'Reports are kept', level: 'High', team: 'Core' }),
        line(111, { need: 'for a year.' }),
        line(124, { id: 'Q-2', need: 'Every export is', level: 'Low', team: 'Data' }),
        line(135, { need: 'checked twice' }),
        line(146, { need: 'before release.' }),
        line(159, { id: 'Q-3', need: 'Alerts are sent by', level: 'High', team: 'Night' }),
        line(170, { need: 'mail and by phone.', team: 'shift' }),
      ],
      texts,
    );
    expect(out).toEqual([
      { id: 'Q-1', need: 'Reports are kept for a year.', level: 'High', team: 'Core' },
      { id: 'Q-2', need: 'Every export is checked twice before release.', level: 'Low', team: 'Data' },
      { id: 'Q-3', need: 'Alerts are sent by mail and by phone.', level: 'High', team: 'Night shift' },
    ]);
  });

  it('joins a label wrapped because it ran out of room, in capitals too, whether its figures sit on the first or the last line', () => {
    // Label column 100 … 200 wide (the widest label); a character is 5 units, a word space 2.
    const lab = (y: number, text: string, figures: Record<string, string> = {}, x0 = 100): RowBand => ({
      ...line(y, { label: text, ...figures }),
      geom: { label: { x0, x1: x0 + text.length * 5, firstW: text.split(' ')[0]!.length * 5 } },
    });
    const out = rows(
      [
        lab(100, 'Farming and Fishing', { a: '12.1' }),
        lab(110, 'Wholesale and Retail', { a: '30.2' }),
        lab(120, 'Trade'), // "Trade" would not have fitted after "Retail": a wrap, not a row
        lab(130, 'Mining', { a: '4.0' }),
        lab(140, 'Energy'), // would have fitted after "Mining": a row of its own (no figures printed)
        lab(150, 'Transport', { a: '3.0' }),
        lab(160, 'Hotels and Restaurant'), // a label-only first line whose row figures are on its last line
        lab(170, 'Catering', { a: '7.5' }),
      ],
      { ...labelled, columns: 2 },
    );
    expect(out.map((r) => r.label)).toEqual([
      'Farming and Fishing',
      'Wholesale and Retail Trade',
      'Mining',
      'Energy',
      'Transport',
      'Hotels and Restaurant Catering',
    ]);
  });

  it('lifts a label wrapped onto the next sub-row back to its row, that sub-row keeping its own cells', () => {
    // Label column 100 … 200 wide; a character is 5 units. Each group prints a count line and a share line.
    const lab = (y: number, text: string, cells: Record<string, string>): RowBand => ({
      ...line(y, { label: text, ...cells }),
      geom: { label: { x0: 100, x1: 100 + text.length * 5, firstW: text.split(' ')[0]!.length * 5 } },
    });
    const out = rows(
      [
        lab(100, 'Seasonal hay', { kind: 'Count', a: '19' }),
        lab(110, 'fever', { kind: 'Share', a: '3.8%' }), // "fever" would not have fitted after "hay", and reads on
        lab(120, 'Headache', { kind: 'Count', a: '48' }),
        lab(130, 'Recurring', { kind: 'Share', a: '9.6%' }), // opens with a capital: a label of its own
      ],
      { ...labelled, numeric: new Set(['a']), columns: 3 },
    );
    expect(out).toEqual([
      { label: 'Seasonal hay fever', kind: 'Count', a: '19' },
      { kind: 'Share', a: '3.8%' },
      { label: 'Headache', kind: 'Count', a: '48' },
      { label: 'Recurring', kind: 'Share', a: '9.6%' },
    ]);
  });

  it('keeps a label-only line with space above it, and a footnote mark, out of the label above', () => {
    const lab = (y: number, text: string, figures: Record<string, string> = {}): RowBand => ({
      ...line(y, { label: text, ...figures }),
      geom: { label: { x0: 100, x1: 100 + text.length * 5, firstW: text.split(' ')[0]!.length * 5 } },
    });
    const out = rows(
      [
        lab(100, 'Public Administration', { a: '20.0' }),
        lab(110, 'Defence Forces', { a: '2.0' }),
        lab(124, 'Services'), // 6 units above it where lines are 2 apart: a heading
        lab(134, 'Health', { a: '8.0' }),
        lab(144, 'Education Services', { a: '9.0' }),
      ],
      { ...labelled, columns: 2 },
    );
    expect(out.map((r) => r.label)).toEqual(['Public Administration', 'Defence Forces', 'Services', 'Health', 'Education Services']);
  });

  it('in line items, joins a wrapped description to its priced line and drops indented notes', () => {
    const items: RowRules = { numeric: new Set(['qty', 'amount']), money: new Set(['amount']), columns: 3, firstKey: 'desc', lh: 8 };
    const out = rows(
      [
        line(100, { desc: 'Laptop bundle', qty: '1', amount: '900.00' }),
        line(110, { desc: 'with charger' }),
        { ...line(120, { desc: 'Serial:' }), textX0: 120 },
        line(130, { desc: 'Setup', qty: '2', amount: '100.00' }),
      ],
      items,
    );
    expect(out).toEqual([
      { desc: 'Laptop bundle with charger', qty: '1', amount: '900.00' },
      { desc: 'Setup', qty: '2', amount: '100.00' },
    ]);
  });

  it('reads continuation from lower case, open brackets and phrases broken off', () => {
    expect(continuesText('Public works,', 'Parks and libraries')).toBe(true);
    expect(continuesText('Total Dissolved Salts (as total S or', 'TDS/2)')).toBe(true);
    expect(continuesText('Grocer Nordwind', 'and Home Supplies')).toBe(true);
    expect(continuesText('Germany', 'Greece')).toBe(false);
    expect(continuesText('Germany', '(a) Greece')).toBe(false);
  });
  it('keeps a last priced row whose cells are set close (one run across the columns) as a row, not a note', () => {
    const priced: RowRules = { numeric: new Set(['qty', 'amount']), money: new Set(['amount']), columns: 3, firstKey: 'desc', lh: 8 };
    expect(
      rows(
        [
          line(100, { desc: 'Garden hose', qty: '2', amount: '$20.00' }),
          { ...line(117, { desc: 'Lamp oil', qty: '3', amount: '$9.00' }), spans: true },
          { ...line(134, { desc: 'Rope ladder delivered to the door', qty: '1', amount: '$45.00' }), spans: true },
        ],
        priced,
      ),
    ).toHaveLength(3);
  });

  it('keeps a note set smaller under its item with that item, though its box lies nearer the next one', () => {
    // TeX sets rows 13.6 apart, baseline to baseline, and a \footnotesize note under an item's title at the same
    // spacing: the note's smaller face sits lower in its line, so its box is 5.2 under the item and 4.0 over the next.
    const item = (base: number, desc: string, amount: string) => line(base - 8, { desc, qty: '1', amount }, 10);
    const note = (base: number, desc: string) => line(base - 6.4, { desc }, 8);
    const out = rows(
      [item(100, 'Velmor cable set', '12.00'), note(113.6, 'delivered to the depot'), item(127.2, 'Tessa fitting', '8.50')],
      { numeric: new Set(['qty', 'amount']), money: new Set(['amount']), columns: 3, lh: 10 },
    );
    expect(out.map((r) => r.desc)).toEqual(['Velmor cable set delivered to the depot', 'Tessa fitting']);
    // (So is one under the item's wrapped title.)
    const wrapped = rows(
      [
        item(100, 'Velmor cable set for the', '12.00'),
        line(113.6 - 8, { desc: 'second floor' }, 10),
        note(127.2, 'delivered to the depot'),
        item(140.8, 'Tessa fitting', '8.50'),
      ],
      { numeric: new Set(['qty', 'amount']), money: new Set(['amount']), columns: 3, lh: 10 },
    );
    expect(wrapped.map((r) => r.desc)).toEqual(['Velmor cable set for the second floor delivered to the depot', 'Tessa fitting']);
  });
});
