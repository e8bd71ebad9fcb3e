import { describe, expect, it } from '@jest/globals';
import { CreateTemplateDto } from '@docket/contracts';
import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import { validateField } from './field.validator.js';

/** The load: this many template saves and field validations in one process. */
const SAVES = 20_000;
/** Accounts the saved templates are spread over. */
const ACCOUNTS = 7;
const INVOICE_NUMBER = {
  key: 'invoice_number',
  label: 'Invoice number',
  data_type: 'string' as const,
  validation: { regex: '^INV-\\d+$' },
};

/** Constraint names a template body fails on, as the gateway's and the template service's validation sees it. */
function saveErrors(body: Record<string, unknown>): string[] {
  const walk = (errors: ValidationError[]): string[] =>
    errors.flatMap((e) => [...Object.keys(e.constraints ?? {}), ...walk(e.children ?? [])]);
  return walk(validateSync(plainToInstance(CreateTemplateDto, body)));
}

/** An invented 27-branch alternation of 491 characters (the pattern size), distinct per `n`. */
function longPattern(n: number): string {
  const branches = Array.from({ length: 27 }, (_, i) => `[A-Z]{2}\\d{${(i % 9) + 1}}-\\w+`).join('|');
  return `^(?:${branches})${'q'.repeat(n % 5)}$`;
}

describe('tenant patterns cannot disable validation for the process (issue 20, item 3)', () => {
  it(`${SAVES} saves and validations with distinct patterns, then a valid pattern still validates`, () => {
    for (let i = 0; i < SAVES; i++) {
      const regex = `^DOC-${i}-[A-Z]{2}\\d+$`;
      const field = { key: 'doc', label: 'Document', data_type: 'string' as const, validation: { regex } };
      expect(saveErrors({ name: `Template ${i}`, fields: [field] })).toEqual([]);
      expect(validateField(field, `DOC-${i}-AB${i}`, `account-${i % ACCOUNTS}`)).toEqual([]);
    }
    expect(saveErrors({ name: 'After the load', fields: [INVOICE_NUMBER] })).toEqual([]);
    expect(validateField(INVOICE_NUMBER, 'INV-1001')).toEqual([]);
    expect(validateField(INVOICE_NUMBER, 'XNV-1001')).toEqual(['value does not match ^INV-\\d+$']);
  });

  it("four 200-field bodies with the issue's pattern size, then a valid pattern still validates", () => {
    for (let body = 0; body < 4; body++) {
      const fields = Array.from({ length: 200 }, (_, i) => ({
        key: `f${i}`,
        label: `Field ${i}`,
        data_type: 'string' as const,
        validation: { regex: longPattern(body) },
      }));
      expect(saveErrors({ name: `Long patterns ${body}`, fields })).toEqual([]);
      expect(validateField(fields[0]!, `AB1-x${'q'.repeat(body % 5)}`, 'account-long')).toEqual([]);
    }
    expect(saveErrors({ name: 'After the long patterns', fields: [INVOICE_NUMBER] })).toEqual([]);
    expect(validateField(INVOICE_NUMBER, 'INV-1001')).toEqual([]);
  });

  it('a pattern whose compiled program is huge (a Unicode class repeated 1000 times) is no threat to the others', () => {
    const letters = { key: 'letters', label: 'Letters', data_type: 'string' as const, validation: { regex: '^\\pL{1000}$' } };
    expect(saveErrors({ name: 'Letters', fields: [letters] })).toEqual([]);
    expect(validateField(letters, 'é'.repeat(1000))).toEqual([]);
    expect(validateField(INVOICE_NUMBER, 'INV-1001')).toEqual([]);
  });
});
