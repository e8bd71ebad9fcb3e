import { describe, expect, it } from '@jest/globals';
import { extractFromLayout } from '../extraction.engine.js';
import { L, layoutOf, R, type Item } from '../testing/invoice-layout.test-helper.js';

// Tables as typesetters set them in papers and reports (tools/eval/synth-latex-tables.mjs makes such PDFs with
// pdflatex): a figure printed with its spread ("85.2 ± 2.0", math spacing around the sign). Every word and figure
// below is invented.

const column = (key: string, label: string, data_type: 'string' | 'number' = 'string') => ({ key, label, data_type });

/** A results table: row labels without a heading, a column of figures with their spread, a column of shares. */
const resultsSchema = {
  fields: [
    {
      key: 'table_1',
      label: 'Table 1 (page 1)',
      data_type: 'table' as const,
      fields: [column('row_label', 'Row label'), column('recall', 'Recall'), column('f1', 'F1')],
    },
  ],
};

/** One row: the label, then "figure ± spread" set flush right at x 300 (wide math spaces), then a share at x 350. */
const resultRow = (y: number, label: string, figure: string, spread: string, share: string): Item[] => {
  const cw = 4.5; // layoutOf's character width at size 9
  const spreadX = 300 - spread.length * cw;
  const signX = spreadX - 3 - cw;
  return [L(100, y, label), R(signX - 3, y, figure), L(signX, y, '±'), L(spreadX, y, spread), R(350, y, share)];
};

describe('tables set by typesetters', () => {
  it('a figure printed with its spread ("85.2 ± 2.0") is one cell, even where it starts left of its heading', () => {
    const items = [
      L(100, 90, 'Table 1: Invented results of three variants.'),
      R(300, 110, 'Recall'),
      R(350, 110, 'F1'),
      ...resultRow(124, 'Kavenmi-base', '85.2', '2.0', '89.1%'),
      ...resultRow(136, 'Lorsel [33]', '87.0', '0.4', '47.1%'),
      ...resultRow(148, 'Tragul w/o pretraining', '11.8', '1.8', '18.0%'),
    ];
    const rows = extractFromLayout(layoutOf([items]), resultsSchema).result.table_1 as Record<string, string>[];
    expect(rows).toEqual([
      { row_label: 'Kavenmi-base', recall: '85.2 ± 2.0', f1: '89.1%' },
      { row_label: 'Lorsel [33]', recall: '87.0 ± 0.4', f1: '47.1%' },
      { row_label: 'Tragul w/o pretraining', recall: '11.8 ± 1.8', f1: '18.0%' },
    ]);
  });

  it('a row of a tightly set table whose figures come in pieces ("+2" "." "90", math mode) is a row, not prose', () => {
    const schema = {
      fields: [
        {
          key: 'table_1',
          label: 'Table 1 (page 1)',
          data_type: 'table' as const,
          fields: [column('dataset', 'Dataset'), column('error', 'Error'), column('auc', 'AUC', 'number')],
        },
      ],
    };
    const cw = 4.5; // layoutOf's character width at size 9
    /** A row set tight: the label, "figure ± spread" and a signed figure typeset as three abutting pieces. */
    const tightRow = (y: number, label: string, figure: string, spread: string, [sign, frac]: [string, string]): Item[] => {
      const x = 235 - (figure.length + 1 + spread.length) * cw - 6; // set flush right under "Error"
      const at = 260 - (sign.length + 1 + frac.length) * cw;
      return [
        L(100, y, label),
        L(x, y, figure),
        L(x + figure.length * cw + 3, y, '±'),
        L(x + (figure.length + 1) * cw + 6, y, spread),
        L(at, y, sign),
        L(at + sign.length * cw, y, '.'),
        L(at + (sign.length + 1) * cw, y, frac),
      ];
    };
    const items = [
      L(100, 90, 'Table 1: Invented errors.'),
      L(100, 110, 'Dataset'),
      R(235, 110, 'Error'),
      R(260, 110, 'AUC'),
      ...tightRow(124, 'Kavenmi-base', '90.2', '0.4', ['+4', '56']),
      ...tightRow(136, 'Lorselgulzelwes-base', '82.7', '1.8', ['+2', '90']),
      ...tightRow(148, 'Tragul', '92.8', '0.3', ['+1', '20']),
    ];
    const rows = extractFromLayout(layoutOf([items]), schema).result.table_1;
    expect(rows).toEqual([
      { dataset: 'Kavenmi-base', error: '90.2 ± 0.4', auc: 4.56 },
      { dataset: 'Lorselgulzelwes-base', error: '82.7 ± 1.8', auc: 2.9 },
      { dataset: 'Tragul', error: '92.8 ± 0.3', auc: 1.2 },
    ]);
  });

  it('a tight row of many figures under a long label is a row, not prose crossing the columns', () => {
    const schema = {
      fields: [
        {
          key: 'table_1',
          label: 'Table 1 (page 1)',
          data_type: 'table' as const,
          fields: [column('model', 'Model'), column('top_1', 'Top-1'), column('f1', 'F1'), column('auc', 'AUC')],
        },
      ],
    };
    const cw = 4.5; // layoutOf's character width at size 9
    /** Runs set one after the other from x, `gap` points apart (a table scaled down to the column's width). */
    const tight = (y: number, x: number, runs: string[], gap = 4): Item[] =>
      runs.map((t) => {
        const item = L(x, y, t);
        x += t.length * cw + gap;
        return item;
      });
    const items = [
      L(60, 90, 'Table 1: Invented scores.'),
      L(60, 110, 'Model'),
      L(172, 110, 'Top-1'),
      L(222, 110, 'F1'),
      L(262, 110, 'AUC'),
      ...tight(124, 60, ['Kazel'], 0),
      ...tight(124, 172, ['78.7', '±', '0.8'], 4),
      ...tight(124, 222, ['2.9', '±', '0.5'], 4),
      ...tight(124, 262, ['36.4%'], 0),
      ...tight(136, 60, ['Lorvenmi w/o', '86.7', '±', '1.1', '95.8', '±', '1.5', '46.8%']),
      ...tight(148, 60, ['Tragul'], 0),
      ...tight(148, 172, ['30.0', '±', '1.1'], 4),
      ...tight(148, 222, ['79.3', '±', '1.4'], 4),
      ...tight(148, 262, ['49.7%'], 0),
    ];
    const rows = extractFromLayout(layoutOf([items]), schema).result.table_1 as Record<string, string>[];
    expect(rows.map((r) => r.model)).toEqual(['Kazel', 'Lorvenmi w/o', 'Tragul']);
  });
});
