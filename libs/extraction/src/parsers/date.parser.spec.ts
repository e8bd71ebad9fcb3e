import { describe, expect, it } from '@jest/globals';
import { findDates, mayHoldFuzzyMonth, parseDate } from './date.parser.js';

describe('parseDate', () => {
  it.each([
    ['2024-03-15', '2024-03-15'],
    ['2024/03/15 10:22', '2024-03-15'],
    ['15/03/2024', '2024-03-15'],
    ['03/15/2024', '2024-03-15'],
    ['15.03.24', '2024-03-15'],
    ['March 15, 2024', '2024-03-15'],
    ['15 Mar 2024', '2024-03-15'],
    ['5 Mar 24', '2024-03-05'],
    ['15-Mar-24', '2024-03-15'],
    ['15. März 2024', '2024-03-15'],
    ['1er janvier 2024', '2024-01-01'],
    ['15 février 2024', '2024-02-15'],
    ['15 maart 2024', '2024-03-15'],
    ['3 oktober 2023', '2023-10-03'],
    ['Aug 3, 2014', '2014-08-03'],
  ])('%s → %s', (raw, iso) => {
    expect(parseDate(raw)).toBe(iso);
  });

  it('resolves ambiguous 01/02/2024 by the document order (day-first by default)', () => {
    expect(parseDate('01/02/2024')).toBe('2024-02-01');
    expect(parseDate('01/02/2024', 'mdy')).toBe('2024-01-02');
  });

  it('rejects impossible dates', () => {
    expect(parseDate('31/02/2024')).toBeUndefined();
    expect(parseDate('no date here')).toBeUndefined();
  });

  it('finds several dates in order', () => {
    expect(findDates('from 01.03.2024 to 31.03.2024').map((d) => d.iso)).toEqual(['2024-03-01', '2024-03-31']);
  });
});

describe('two-digit years', () => {
  it('take the century that keeps the date within 80 years back and 20 ahead', () => {
    expect(parseDate('7/16/68', 'mdy')).toBe('1968-07-16');
    expect(parseDate('9/ 3/ 92', 'mdy')).toBe('1992-09-03');
    expect(parseDate('15.03.24')).toBe('2024-03-15');
  });
});

describe('OCR-damaged numeric dates', () => {
  it('ends a date at a time glued to its year', () => {
    expect(findDates('No 12 01/02/202114:05:33')[0]?.iso).toBe('2021-02-01');
  });
  it('undoes a misread 0 (read as 8) only in the parts that are out of range', () => {
    expect(parseDate('09/81/2825')).toBe('2025-01-09');
    expect(parseDate('18/08/2020')).toBe('2020-08-18');
    expect(parseDate('45/88/2020')).toBeUndefined();
  });
});

describe('phone numbers printed in groups', () => {
  it('are no dates: a fourth group after the same mark ends it', () => {
    expect(findDates('Tel. : 04.21.93.55.17')).toEqual([]);
    expect(findDates('Tél 06.12.34.56.78 – le 30/03/2018')[0]?.iso).toBe('2018-03-30');
  });
  it('leave a date before a full stop or a time as it is', () => {
    expect(parseDate('Date: 04.11.93.')).toBe('1993-11-04');
    expect(parseDate('04.11.2023 12.30')).toBe('2023-11-04');
  });
});

describe('month names one letter off', () => {
  it('reads a month name misspelt or misread by one letter in a full date', () => {
    expect(parseDate('Ocotber 9, 1998')).toBe('1998-10-09');
    expect(parseDate('15 Febuary 2024')).toBe('2024-02-15');
    expect(parseDate('3 Setpember 2021')).toBe('2021-09-03');
  });
  it('does not read other words or short month names that way', () => {
    expect(parseDate('Order 12, 2024')).toBeUndefined();
    expect(parseDate('Maya 4 2020')).toBeUndefined();
  });
  it('reads a misspelt month name glued to a digit, and beside wide characters', () => {
    expect(parseDate('1Ocotber 9, 1998')).toBe('1998-10-09');
    expect(parseDate('Paid ‖ 15 Febuary 2024 ‖ €')).toBe('2024-02-15');
    expect(parseDate('𝐀 Ocotber 9, 1998')).toBe('1998-10-09');
  });
});

describe('mayHoldFuzzyMonth', () => {
  it('is true for a text with a word one letter off a month name, also after a look-alike digit', () => {
    expect(mayHoldFuzzyMonth('Due Ocotber 9, 1998')).toBe(true);
    expect(mayHoldFuzzyMonth('Ref x1Ocotber 9, 1998')).toBe(true);
    expect(mayHoldFuzzyMonth('paid 3 Apri1 2021')).toBe(true);
    expect(mayHoldFuzzyMonth('paid 3.  Apri1, 2021')).toBe(true);
  });
  it('is false for texts without a month name one letter off followed by a day and year or a year', () => {
    expect(mayHoldFuzzyMonth('Total 1,234.00 EUR 2024')).toBe(false);
    expect(mayHoldFuzzyMonth('Order 12, 2024')).toBe(false);
    expect(mayHoldFuzzyMonth('15 October 2024')).toBe(false);
    expect(mayHoldFuzzyMonth('Ocotber report 2024')).toBe(false);
    expect(mayHoldFuzzyMonth('see Ocotber 2024')).toBe(false);
    expect(mayHoldFuzzyMonth('')).toBe(false);
  });
});

describe('dates with OCR debris', () => {
  it('reads a month name with a digit for a look-alike letter', () => {
    expect(parseDate('Apri1 7, 1979')).toBe('1979-04-07');
    expect(parseDate('Oct0ber 2, 1986')).toBe('1986-10-02');
  });
  it('reads a date with stray dots or commas between its day and its year', () => {
    expect(parseDate('June 4.1992')).toBe('1992-06-04');
    expect(parseDate('November 28,.1977')).toBe('1977-11-28');
    expect(parseDate('FEB 11. 2003')).toBe('2003-02-11');
  });
  it('still reads no date from a word with digits that is no month', () => {
    expect(parseDate('Order1 12, 2024')).toBeUndefined();
  });
});

describe('findDates memo', () => {
  it('answers a text asked again with fresh copies, per date order', () => {
    const first = findDates('Issued 03/04/2024, due 2024-05-01');
    first[0]!.iso = 'changed';
    first.pop();
    expect(findDates('Issued 03/04/2024, due 2024-05-01').map((d) => d.iso)).toEqual(['2024-04-03', '2024-05-01']);
    expect(findDates('Issued 03/04/2024, due 2024-05-01', 'mdy')[0]!.iso).toBe('2024-03-04');
  });
});

describe('month names and date shapes of every language pack', () => {
  it.each([
    ['7 de octubre de 2025', '2025-10-07'],
    ['7 ottobre 2025', '2025-10-07'],
    ['7 de outubro de 2025', '2025-10-07'],
    ['7 października 2025', '2025-10-07'],
    ['7. října 2025', '2025-10-07'],
    ['7. oktober 2025', '2025-10-07'],
    ['7 oktober 2025', '2025-10-07'],
    ['7. lokakuuta 2025', '2025-10-07'],
    ['7. listopada 2025', '2025-11-07'],
    ['2025. október 7.', '2025-10-07'],
    ['7 Disember 2025', '2025-12-07'],
    ['2025年10月7日', '2025-10-07'],
    ['2025 년 10 월 7 일', '2025-10-07'],
  ])('%s', (raw, iso) => {
    expect(parseDate(raw)).toBe(iso);
  });

  it('needs the dot after a year printed before its month name, and a unit after each part', () => {
    expect(parseDate('Order 2025 October 7 items')).toBeUndefined();
    expect(parseDate('2025年10月')).toBeUndefined();
  });
});
