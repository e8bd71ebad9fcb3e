import { describe, expect, it } from '@jest/globals';
import type { FieldDef } from '../engine.types.js';
import { buildPage } from '../layout/layout.builder.js';
import type { DocLayout, Word } from '../layout/layout.types.js';
import { findLabel, isLabelPiece, similarity } from './form.label.js';
import { locateFormFields } from './form.locator.js';
import { compact } from './form.text.js';

/** Words of one printed line: text runs at x positions, 10 units high, 6 units per character. */
function row(y: number, ...cells: [number, string][]): Word[] {
  const out: Word[] = [];
  for (const [x0, text] of cells) {
    let x = x0;
    for (const t of text.split(' ')) {
      out.push({ text: t, x0: x, x1: x + t.length * 6, y0: y, y1: y + 10, conf: 0.9 });
      x += t.length * 6 + 5;
    }
  }
  return out;
}

const doc = (...rows: Word[][]): DocLayout => ({ pages: [buildPage(1, 800, 1000, rows.flat(), true)] });
const ctx = { dateOrder: 'mdy' as const };
const f = (key: string, label: string, data_type: FieldDef['data_type'] = 'string'): FieldDef => ({ key, label, data_type });

describe('form locator', () => {
  it('compares printed labels by letters and digits only, tolerating OCR errors', () => {
    expect(compact('Name / Room No.:')).toBe('nameroomno');
    expect(similarity('supervisormanager', 'supervisormanager')).toBe(1);
    const page = doc(row(100, [50, 'Supervlsor/Manager: J. Smith'])).pages[0]!;
    expect(findLabel(page, 'Supervisor / Manager')[0]).toMatchObject({ start: 0, end: 1 });
  });

  it('reads the value right of the label up to the next label of the schema', () => {
    const d = doc(row(100, [50, 'Name: A. Example, B. Sample Date: 4/ 7/ 95']));
    const got = locateFormFields(d, [f('name', 'Name'), f('date', 'Date', 'date')], ctx);
    expect(got.get('name')?.value).toBe('A. Example, B. Sample');
    expect(got.get('date')?.value).toBe('1995-04-07');
  });

  it('reads a multi-line answer below its label and stops at the next label', () => {
    const d = doc(
      row(100, [50, 'COMMENTS:']),
      row(118, [60, 'Please contact the supplier']),
      row(132, [60, 'before the end of the month.']),
      row(160, [50, 'SIGNATURE:'], [200, 'J. Doe']),
    );
    const got = locateFormFields(d, [f('comments', 'COMMENTS'), f('signature', 'SIGNATURE')], ctx);
    expect(got.get('comments')?.value).toBe('Please contact the supplier before the end of the month.');
    expect(got.get('signature')?.value).toBe('J. Doe');
  });

  it('gives a longer label its words before a shorter one inside it, and repeats in reading order', () => {
    const d = doc(
      row(100, [50, 'DATE RECEIVED: 12/4/80'], [400, 'TESTED: 3/12/81']),
      row(200, [50, 'DATE RECEIVED: 3/5/81']),
      row(300, [50, 'DATE: 1/2/81']),
    );
    const got = locateFormFields(
      d,
      [f('received', 'DATE RECEIVED', 'date'), f('tested', 'TESTED'), f('received_2', 'DATE RECEIVED', 'date'), f('date', 'DATE', 'date')],
      ctx,
    );
    expect(got.get('received')?.value).toBe('1980-12-04');
    expect(got.get('tested')?.value).toBe('3/12/81');
    expect(got.get('received_2')?.value).toBe('1981-03-05');
    expect(got.get('date')?.value).toBe('1981-01-02');
  });

  it('finds a label printed over two lines and reads the value right of its first line', () => {
    const d = doc(
      row(100, [50, 'Final Review Due'], [250, '6/8/91']),
      row(114, [50, '(Vendor Memo)']),
      row(160, [50, 'Sample Size:'], [250, '400']),
    );
    const got = locateFormFields(d, [f('due', 'Final Review Due (Vendor Memo)', 'date'), f('size', 'Sample Size')], ctx);
    expect(got.get('due')?.value).toBe('1991-06-08');
    expect(got.get('size')?.value).toBe('400');
  });

  it('reads the value beside the last line of a label stacked over two lines', () => {
    const d = doc(row(100, [50, 'DELIVERY']), row(114, [50, 'WINDOW:'], [200, '8 a.m. to noon']), row(160, [50, 'Depot:'], [200, 'North']));
    const got = locateFormFields(d, [f('window', 'DELIVERY WINDOW'), f('depot', 'Depot')], ctx);
    expect(got.get('window')?.value).toBe('8 a.m. to noon');
    expect(got.get('depot')?.value).toBe('North');
  });

  it('answers check-box options with their mark, right of the option or in the box before it', () => {
    const d = doc(
      row(100, [50, 'Attached: Yes x No']),
      row(130, [50, '|X | increased | | decreased']),
      row(160, [50, '_X_ High'], [200, 'Medium']),
      row(190, [50, 'Remarks: x-ray follow-up']),
    );
    const got = locateFormFields(
      d,
      [f('yes', 'Yes'), f('no', 'No'), f('inc', 'increased'), f('high', 'High'), f('remarks', 'Remarks')],
      ctx,
    );
    expect(got.get('yes')?.value).toBe('x');
    // The mark after "Yes" answers "Yes", not the "No" after it.
    expect(got.has('no')).toBe(false);
    expect(got.get('inc')?.value).toBe('☑');
    expect(got.get('high')?.value).toBe('_X_');
    expect(got.get('remarks')?.value).toBe('x-ray follow-up');
  });

  it('gives a mark between two options to the nearer one, reads a cross OCR split in two, and keeps a doubtful lone cross', () => {
    const w = (text: string, x0: number, y0: number, x1: number, conf = 0.95): Word => ({ text, x0, y0, x1, y1: y0 + 12, conf });
    const d = doc(
      [
        w('QUALITY:', 50, 100, 120),
        w('LOW', 200, 100, 230),
        w('X', 254, 100, 261, 0.4),
        w('MEDIUM', 270, 100, 320),
        w('HIGH', 360, 100, 395),
      ],
      [w('SPEED:', 50, 140, 105), w('X_SLOW', 180, 140, 240), w('FAST', 280, 140, 315)],
      [w('Ontario', 50, 180, 110), w('Xx', 190, 180, 205, 0.3), w('Quebec', 260, 180, 320)],
      [w('Alberta', 50, 220, 110), w('x', 190, 224, 192, 0.2), w('Manitoba', 260, 220, 330)],
    );
    const got = locateFormFields(d, [f('medium', 'MEDIUM'), f('slow', 'SLOW'), f('ontario', 'Ontario'), f('alberta', 'Alberta')], ctx);
    expect(got.get('medium')?.value).toBe('X');
    expect(got.get('slow')?.value).toBe('X_');
    expect(got.get('ontario')?.value).toBe('x');
    expect(got.get('alberta')?.value).toBe('x');
  });

  it('gives a mark written on the blank before an option to that option', () => {
    const w = (text: string, x0: number, y0: number, x1: number): Word => ({ text, x0, y0, x1, y1: y0 + 12, conf: 0.9 });
    const d = doc([
      w('RATING:', 50, 100, 110),
      w('LOW', 200, 100, 230),
      w('_X', 241, 100, 262),
      w('MEDIUM', 271, 100, 320),
      w('HIGH', 360, 100, 395),
    ]);
    expect(locateFormFields(d, [f('medium', 'MEDIUM')], ctx).get('medium')?.value).toBe('_X');
  });

  it('takes the printing of an option with a mark beside it when the option is printed more often than asked', () => {
    const d = doc(
      row(100, [50, 'Scope:'], [150, 'Whole'], [230, 'Some']),
      row(130, [50, 'Reach:'], [150, 'Whole X..'], [230, 'Some']),
      row(160, [50, 'LATER:'], [150, 'LOW'], [200, 'MID']),
      row(190, [50, 'GRADE:'], [150, 'LOW'], [185, '_X'], [210, 'MID'], [260, 'TOP']),
      row(220, [50, 'Sent: Yes x No']),
      row(250, [50, 'Kept: Yes'], [140, 'No']),
    );
    const got = locateFormFields(d, [f('whole', 'Whole'), f('mid', 'MID'), f('no', 'No')], ctx);
    expect(got.get('whole')?.value).toBe('X..');
    expect(got.get('mid')?.value).toBe('_X');
    // A mark right after "Yes" is that option's, not a sign that this "No" is the answered printing.
    expect(got.has('no')).toBe(false);
  });

  it('keeps the currency sign printed before an amount blank with the amount', () => {
    const w = (text: string, x0: number, y0: number, x1: number): Word => ({ text, x0, y0, x1, y1: y0 + 12, conf: 0.9 });
    const d = doc([w('Deposit', 50, 100, 100), w('$', 110, 100, 117), w('2,500.', 160, 100, 205)]);
    expect(locateFormFields(d, [f('deposit', 'Deposit')], ctx).get('deposit')?.value).toBe('$ 2,500.');
  });

  it('drops doubtful scraps at the ends of a value but keeps figures and initials', () => {
    const w = (text: string, x0: number, y0: number, x1: number, conf = 0.95): Word => ({ text, x0, y0, x1, y1: y0 + 12, conf });
    const d = doc(
      [
        w('Carrier:', 50, 100, 110),
        w('Ce', 130, 100, 142, 0.1),
        w('Blue', 150, 100, 180),
        w('Line', 186, 100, 210),
        w('B', 230, 100, 236, 0.2),
      ],
      [w('Agent:', 50, 140, 100), w('J.', 130, 140, 140, 0.2), w('Smith', 146, 140, 190)],
    );
    const got = locateFormFields(d, [f('carrier', 'Carrier'), f('agent', 'Agent')], ctx);
    expect(got.get('carrier')?.value).toBe('Blue Line');
    expect(got.get('agent')?.value).toBe('J. Smith');
  });

  it('gives no answer rather than text OCR could not read', () => {
    const w = (text: string, x0: number, y0: number, x1: number, conf = 0.95): Word => ({ text, x0, y0, x1, y1: y0 + 12, conf });
    const d = doc(
      [w('Signed:', 50, 100, 105), w('Sy', 130, 100, 150, 0.15), w('lrq', 156, 100, 180, 0.2)],
      [w('Witness:', 50, 140, 110), w('R.', 130, 140, 142), w('Ames', 148, 140, 190)],
    );
    const got = locateFormFields(d, [f('signed', 'Signed'), f('witness', 'Witness')], ctx);
    expect(got.has('signed')).toBe(false);
    expect(got.get('witness')?.value).toBe('R. Ames');
  });

  it("prefers the occurrence of a label printed in the schema label's own case", () => {
    const d = doc(
      row(100, [50, 'TEAM LEADER'], [200, 'A. Novak']),
      row(300, [50, 'Copies:']),
      row(320, [60, 'Team Leader:']),
      row(340, [60, 'Archive']),
    );
    const got = locateFormFields(d, [f('leader', 'TEAM LEADER')], ctx);
    expect(got.get('leader')?.value).toBe('A. Novak');
  });

  it('reads past leader dashes glued to the label and the letters OCR makes of them', () => {
    const d = doc(row(100, [50, 'Print-———eeeeeao BLUE STAR']), row(130, [50, 'Paper ——————m——a Nordpaper 812']));
    const got = locateFormFields(d, [f('print', 'Print'), f('paper', 'Paper')], ctx);
    expect(got.get('print')?.value).toBe('BLUE STAR');
    expect(got.get('paper')?.value).toBe('Nordpaper 812');
  });

  it('keeps a dash between the words of a value and drops specks at its end', () => {
    const words = row(100, [50, 'MEDIA'], [200, 'MAGAZINE'], [270, 'BIG SKY .']);
    // OCR boxes of a dash and a dot are a few pixels high.
    words.push({ text: '-', x0: 255, x1: 262, y0: 104, y1: 106, conf: 0.9 });
    const dot = words.find((w) => w.text === '.')!;
    ((dot.y0 = 108), (dot.x0 = dot.x1 - 2));
    const got = locateFormFields(doc(words), [f('media', 'MEDIA')], ctx);
    expect(got.get('media')?.value).toBe('MAGAZINE - BIG SKY');
  });

  it('reads the answer of a label alone on its row at a tab stop right of it, one line lower, wrapped lines included', () => {
    const d = doc(
      row(100, [50, 'Sizes:']),
      row(112, [200, '12 X 30 inches']),
      row(140, [50, 'Material and Finish:']),
      row(152, [200, 'Heavy card, matte coat']),
      row(164, [198, 'on both sides']),
      row(190, [50, 'Remarks:']),
    );
    const got = locateFormFields(d, [f('sizes', 'Sizes'), f('material', 'Material and Finish'), f('remarks', 'Remarks')], ctx);
    expect(got.get('sizes')?.value).toBe('12 X 30 inches');
    expect(got.get('material')?.value).toBe('Heavy card, matte coat on both sides');
    expect(got.has('remarks')).toBe(false);
  });

  it("continues a wrapped answer of the right column past the left column's text and labels on its lines", () => {
    const d = doc(
      row(100, [50, 'Colour:'], [120, 'Deep red'], [400, 'Packing:'], [470, 'Two boxes of ten each']),
      row(114, [50, 'Grade:'], [120, 'First'], [470, 'and one spare box']),
    );
    const got = locateFormFields(d, [f('colour', 'Colour'), f('grade', 'Grade'), f('packing', 'Packing')], ctx);
    expect(got.get('packing')?.value).toBe('Two boxes of ten each and one spare box');
    expect(got.get('grade')?.value).toBe('First');
  });

  it("does not end an answer at its own label quoted at word spacing in the answer's running text", () => {
    const d = doc(
      row(100, [50, 'STORAGE NOTES']),
      row(114, [60, 'Keep the sample sealed; see the']),
      row(128, [60, 'Storage Notes of the supplier manual']),
      row(160, [50, 'SIGNED:'], [120, 'J. Doe']),
    );
    const got = locateFormFields(d, [f('notes', 'STORAGE NOTES'), f('signed', 'SIGNED')], ctx);
    expect(got.get('notes')?.value).toBe('Keep the sample sealed; see the Storage Notes of the supplier manual');
  });

  it('splits an answer OCR glued to the end of its label across the blank or after the colon from the label', () => {
    const d = doc(
      row(100, [50, 'BRANCH:_Northern Depot'], [400, 'FLOOR_3']),
      row(130, [50, 'X_LARGE'], [120, 'SMALL']),
      row(160, [50, 'PHONE:(555)010-2030']),
    );
    const got = locateFormFields(d, [f('branch', 'BRANCH'), f('floor', 'FLOOR'), f('large', 'LARGE'), f('phone', 'PHONE')], ctx);
    expect(got.get('branch')?.value).toBe('Northern Depot');
    expect(got.get('floor')?.value).toBe('3');
    expect(got.get('phone')?.value).toBe('(555)010-2030');
    expect(got.get('large')?.value).toBe('X_');
  });

  it('takes an answer naming the first option of its label as the answer, not as the label printed again', () => {
    const d = doc(row(100, [50, 'BOX AND/OR CRATE'], [250, 'BOX']), row(130, [50, 'SHIP VIA'], [250, 'Rail']));
    const got = locateFormFields(d, [f('box', 'BOX AND/OR CRATE'), f('via', 'SHIP VIA')], ctx);
    expect(got.get('box')?.value).toBe('BOX');
  });

  it("reads a mark OCR glued to the front of an option with nothing between them as that option's answer", () => {
    const d = doc(row(100, [50, 'WAS IT ON TIME?'], [200, 'XYES'], [260, 'NO']), row(130, [50, 'XRAY DONE'], [150, 'twice']));
    const got = locateFormFields(d, [f('yes', 'YES'), f('xray', 'XRAY DONE')], ctx);
    expect(got.get('yes')?.value).toBe('X');
    expect(got.get('xray')?.value).toBe('twice');
  });

  it('still counts an amount label printed again inside a longer phrase as printed more often than asked for', () => {
    const d = doc(row(100, [50, 'Total'], [300, '12.00']), row(130, [50, 'Total of taxed items'], [300, '15.00']));
    const got = locateFormFields(d, [f('total', 'Total', 'number')], ctx);
    expect(got.get('total')?.labelScore).toBeLessThan(1);
  });

  it('prefers the printings of an option with a mark glued to their front when the option is printed more often than asked', () => {
    const d = doc(
      row(100, [50, 'SPEED:'], [150, 'LOW'], [250, 'HIGH']),
      row(130, [50, 'NOISE:'], [150, 'XLOW'], [250, 'HIGH']),
      row(160, [50, 'HEAT:'], [150, 'X_LOW'], [250, 'HIGH']),
    );
    const got = locateFormFields(d, [f('low', 'LOW'), f('low_2', 'LOW')], ctx);
    expect(got.get('low')?.value).toBe('X');
    expect(got.get('low_2')?.value).toBe('X_');
  });

  it('finds a label OCR read in pieces of words', () => {
    const d = doc(row(100, [50, 'Ship ping Me thod (Air, Se a, Rail):'], [400, 'Sea freight']));
    const got = locateFormFields(d, [f('method', 'Shipping Method (Air, Sea, Rail)')], ctx);
    expect(got.get('method')?.value).toBe('Sea freight');
  });

  it('finds a long label OCR read nearly letter by letter', () => {
    const d = doc(row(100, [50, 'An tic ipa ted Har ves ting Com ple tion'], [400, 'soon']));
    const got = locateFormFields(d, [f('when', 'Anticipated Harvesting Completion')], ctx);
    expect(got.get('when')?.value).toBe('soon');
  });

  it("reads the answer in the label's own cell even when the row reads like a row of labels", () => {
    const d = doc(row(100, [50, 'ITEM: Sprocket'], [300, 'DATE: Tuesday']), row(130, [50, 'Colour'], [300, 'Blue']));
    const got = locateFormFields(d, [f('item', 'ITEM'), f('colour', 'Colour')], ctx);
    expect(got.get('item')?.value).toBe('Sprocket');
  });

  it('does not read a label across a cell gap', () => {
    const page = doc(row(100, [50, 'ITEM: Garden Hoses'], [300, 'COLOUR'])).pages[0]!;
    expect(findLabel(page, 'HOSE COLOUR')).toEqual([]);
  });

  it('keeps the unit printed in a column of its own after a figure with the figure', () => {
    const d = doc(row(100, [50, 'Rod Weight'], [300, '512'], [400, 'kg']), row(130, [50, 'Colour'], [300, '7'], [400, 'Blue']));
    const got = locateFormFields(d, [f('weight', 'Rod Weight'), f('colour', 'Colour')], ctx);
    expect(got.get('weight')?.value).toBe('512 kg');
    expect(got.get('colour')?.value).toBe('7');
  });

  it('reads below a column heading that is printed again to its right', () => {
    const d = doc(row(100, [50, 'Name of Account'], [300, 'Name of Account']), row(120, [50, 'Harbour Fuel'], [300, 'Prime Station']));
    const got = locateFormFields(d, [f('account', 'Name of Account')], ctx);
    expect(got.get('account')?.value).toBe('Harbour Fuel');
  });

  it('finds a label that OCR glued to the word before it', () => {
    const d = doc(row(100, [50, '11/16New Balance:'], [300, '(413,207.19)']), row(130, [50, 'oCups'], [200, '12']));
    const got = locateFormFields(d, [f('balance', 'New Balance'), f('cups', 'Cups')], ctx);
    expect(got.get('balance')?.value).toBe('(413,207.19)');
    expect(got.get('cups')?.value).toBe('12');
  });

  it('takes no piece of another label, misread or not, as a value: the value is then below', () => {
    const labels = ['Colour', 'Paint Code (Ral)', 'Yes'];
    expect(isLabelPiece('Palnt Code', labels)).toBe(true);
    expect(isLabelPiece('(Ral)', labels)).toBe(true);
    expect(isLabelPiece('Pain Code (Ral)', labels, 'Colour', false)).toBe(true);
    expect(isLabelPiece('(Ral)', labels, 'Colour', false)).toBe(false);
    expect(isLabelPiece('Code', labels, 'Paint Code (Ral)')).toBe(false);
    expect(isLabelPiece('Blue', labels)).toBe(false);
    const d = doc(row(100, [50, 'Colour'], [200, '(Ral)']), row(120, [50, 'Blue green']));
    expect(locateFormFields(d, [f('colour', 'Colour'), f('code', 'Paint Code (Ral)')], ctx).get('colour')?.value).toBe('Blue green');
    const under = doc(row(100, [50, 'Colour']), row(115, [50, '(Ral)']), row(130, [50, 'Blue']));
    expect(locateFormFields(under, [f('colour', 'Colour'), f('code', 'Paint Code (Ral)')], ctx).get('colour')).toBeUndefined();
  });

  it('ends a value where a printed label of another question starts, after a clear gap before it', () => {
    const right = doc(row(100, [50, 'Ordered by: Ann Example'], [200, 'Ship Date:']));
    expect(locateFormFields(right, [f('ordered_by', 'Ordered by')], ctx).get('ordered_by')?.value).toBe('Ann Example');
    const below = doc(
      row(100, [50, 'Remarks']),
      row(120, [50, 'Handle with care']),
      row(140, [50, 'Keep dry'], [120, 'Checked by: J. Roe']),
    );
    expect(locateFormFields(below, [f('remarks', 'Remarks')], ctx).get('remarks')?.value).toBe('Handle with care Keep dry');
  });

  it('continues a short value on the lines under its start, unless something is printed left of them', () => {
    const list = doc(
      row(100, [50, 'Copies:'], [110, 'A. Sample']),
      row(115, [110, 'B. Example']),
      row(130, [50, 'Date:'], [110, '4/7/95']),
    );
    expect(locateFormFields(list, [f('copies', 'Copies')], ctx).get('copies')?.value).toBe('A. Sample B. Example');
    const rows = doc(row(100, [50, 'To:'], [90, 'Ann Roe']), row(115, [45, 'From:'], [90, 'Bo Poe']));
    expect(locateFormFields(rows, [f('to', 'To')], ctx).get('to')?.value).toBe('Ann Roe');
  });

  it('does not end a value at a word of running text that spells another label again', () => {
    const d = doc(row(100, [50, 'Markets:'], [120, 'North']), row(130, [50, 'Goal:']), row(145, [60, 'Sell more boxes in all markets.']));
    const got = locateFormFields(d, [f('markets', 'Markets'), f('goal', 'Goal')], ctx);
    expect(got.get('markets')?.value).toBe('North');
    expect(got.get('goal')?.value).toBe('Sell more boxes in all markets.');
  });

  it('does not run a value into the next row, whose label starts left of the value', () => {
    const d = doc(
      row(100, [50, 'Client: Alpha Beta Gamma Ltd']),
      row(115, [30, 'Product:'], [100, 'Widget']),
      row(300, [50, 'A line of running text'], [400, 'that runs to the margin']),
    );
    expect(locateFormFields(d, [f('client', 'Client')], ctx).get('client')?.value).toBe('Alpha Beta Gamma Ltd');
    const abbreviated = doc(
      row(100, [50, 'Style: AB - CD']),
      row(115, [50, 'Order Ref. No.:']),
      row(300, [50, 'A line of running text'], [400, 'that runs to the margin']),
    );
    expect(locateFormFields(abbreviated, [f('style', 'Style')], ctx).get('style')?.value).toBe('AB - CD');
    const below = doc(row(100, [80, 'Notes']), row(115, [80, 'Fragile goods']), row(130, [20, 'Dept:'], [80, 'Stores']));
    expect(locateFormFields(below, [f('notes', 'Notes')], ctx).get('notes')?.value).toBe('Fragile goods');
  });

  it('reads an initial with a comma as an initial and drops blank strokes glued to words of a value', () => {
    const d = doc(row(100, [50, 'Agent: P, Q. Sample']), row(130, [50, 'Phone: (555) _010-0000']), row(160, [50, 'Vendor: Acme_ Stores']));
    const got = locateFormFields(d, [f('agent', 'Agent'), f('phone', 'Phone'), f('vendor', 'Vendor')], ctx);
    expect(got.get('agent')?.value).toBe('P. Q. Sample');
    expect(got.get('phone')?.value).toBe('(555) 010-0000');
    expect(got.get('vendor')?.value).toBe('Acme Stores');
  });

  it('reads a blank stroke OCR put between two typed words as the space it stands for', () => {
    const d = doc(row(100, [50, 'Maker: NORTHWIND_PAPER_WORKS']), row(130, [50, 'Width: 12.5_cm.']), row(160, [50, 'Answer: _X_']));
    const got = locateFormFields(d, [f('maker', 'Maker'), f('width', 'Width'), f('answer', 'Answer')], ctx);
    expect(got.get('maker')?.value).toBe('NORTHWIND PAPER WORKS');
    expect(got.get('width')?.value).toBe('12.5 cm.');
    expect(got.get('answer')?.value).toBe('_X_');
  });

  it('reads a cross OCR followed with a period as the mark of the option before it', () => {
    const d = doc(row(100, [50, 'Approved:'], [120, 'Yes'], [150, 'x.'], [175, 'No']));
    expect(locateFormFields(d, [f('yes', 'Yes')], ctx).get('yes')?.value).toBe('x.');
  });

  it('does not return the next label as the value and never throws on an empty page', () => {
    const d = doc(row(100, [50, 'FROM:'], [300, 'TO:']));
    expect(locateFormFields(d, [f('from', 'FROM'), f('to', 'TO')], ctx).size).toBe(0);
    expect(locateFormFields({ pages: [] }, [f('from', 'FROM')], ctx).size).toBe(0);
  });

  it('reads a typed fill-in set on a line of its own above the small label at its foot', () => {
    const w = (text: string, x0: number, y0: number, x1: number, y1: number): Word => ({ text, x0, y0, x1, y1, conf: 0.9 });
    // Small printed labels sit on the rule; the typed values stand on the same rule, taller and higher.
    const d = doc(
      [w('Harbourview', 140, 130, 210, 148), w('Q42', 483, 132, 507, 148)],
      [w('SOURCE', 100, 146, 131, 152), w('SUPPLIER', 410, 146, 465, 152), w('NO', 468, 146, 478, 152)],
    );
    expect(d.pages[0]!.lines).toHaveLength(2);
    const got = locateFormFields(d, [f('source', 'SOURCE'), f('no', 'SUPPLIER NO')], ctx);
    expect(got.get('source')?.value).toBe('Harbourview');
    expect(got.get('no')?.value).toBe('Q42');
  });

  it('joins words of a row that OCR split over two lines, but not the values of the rows around it', () => {
    const w = (text: string, x0: number, y0: number, x1: number, y1: number): Word => ({ text, x0, y0, x1, y1, conf: 0.9 });
    const d = doc(
      row(40, [50, 'SAMPLE SPECIFICATIONS FOR THE LABORATORY'], [500, 'PAGE ONE OF TWO']),
      [w('Brand', 50, 100, 90, 112), w('BLUE', 150, 102, 175, 112), w('STAR', 180, 102, 215, 112)],
      [w('REGULAR', 220, 106, 280, 116)],
      [w('Length', 50, 118, 95, 130), w('85', 150, 118, 165, 130), w('mm.', 170, 121, 192, 130)],
    );
    const got = locateFormFields(d, [f('brand', 'Brand'), f('length', 'Length')], ctx);
    expect(got.get('brand')?.value).toBe('BLUE STAR REGULAR');
    expect(got.get('length')?.value).toBe('85 mm.');
  });

  it('skips the letters OCR reads into a leader line: flat scraps and doubtful short ones standing apart', () => {
    const w = (text: string, x0: number, y0: number, x1: number, y1: number, conf = 0.95): Word => ({ text, x0, y0, x1, y1, conf });
    const d = doc(
      [w('Brand', 76, 324, 123, 334), w('DE', 142, 329, 178, 331, 0.07), w('BLUE', 240, 325, 267, 334), w('STAR', 278, 325, 314, 335)],
      [w('Draw', 75, 409, 113, 418), w('TS', 168, 407, 183, 421, 0.15), w('BLUE', 239, 407, 267, 416), w('STAR', 277, 407, 313, 417)],
      [w('Length', 76, 500, 132, 512), w('85', 142, 500, 158, 512, 0.2), w('mm.', 250, 500, 270, 512)],
    );
    const got = locateFormFields(d, [f('brand', 'Brand'), f('draw', 'Draw'), f('length', 'Length')], ctx);
    expect(got.get('brand')?.value).toBe('BLUE STAR');
    expect(got.get('draw')?.value).toBe('BLUE STAR');
    // A doubtful number is not skipped as leader noise (the word after it is not the value); alone, it is
    // too doubtful to answer at all.
    expect(got.has('length')).toBe(false);
  });
});
