import { describe, expect, it } from '@jest/globals';
import { correctWords } from './locale.corrections.js';
import { LOCALE_PACKS } from './locale.pack.js';
import { allPacksVocabulary, detectLocales, vocabularyOrAll } from './locale.registry.js';
import { vocabularyFor } from './locale.vocabulary.js';

describe('locale packs', () => {
  it('loads every pack with an id and only known keys, labels folded to lower case', () => {
    const keys = new Set([
      'id',
      'name',
      'country',
      'generic',
      'detect',
      'dateOrder',
      'labels',
      'legalForms',
      'addressWords',
      'regions',
      'dictionary',
      'ocrConfusions',
      'ocrFixes',
      'greetings',
      'tendered',
      'change',
      'documentTitles',
      'documentTitlePrefixes',
      'titleNumberWords',
      'payWords',
      'dueBefore',
      'partyPrefixes',
      'salutations',
      'registrationMarks',
      'closingWords',
      'bankWords',
      'payeeLabels',
      'onBehalfOf',
      'summaryWords',
      'taxCodeWords',
      'discountLines',
      'depositWords',
      'roundingWords',
      'amountToPayWords',
      'contactWords',
      'registrationLabels',
      'receiptBodyWords',
      'legalAbbreviations',
      'houseNumberWords',
      'clockWords',
      'yesWords',
      'noWords',
      'documentKinds',
      'postcodes',
      'months',
      'ordinals',
      'dateJoiners',
      'dateUnits',
      'textWords',
      'textDateOrder',
      'yearWords',
      'phoneWords',
      'lawReferences',
      'postcodePrefixes',
      'itemCodeLabels',
      'phrases',
      'accentedPhrases',
      'phraseHeads',
      'excluding',
      'including',
      'taxWords',
      'taxLinks',
      'labelFillers',
      'addresseeCells',
      'carryOver',
      'tableNotes',
      'pageWords',
      'totalModifiers',
      'connectors',
      'deliveryLabels',
      'currencyMarks',
      'vatNames',
      'registrationCodes',
    ]);
    expect(LOCALE_PACKS.size).toBeGreaterThanOrEqual(10);
    for (const p of LOCALE_PACKS.values()) {
      expect(Object.keys(p).filter((k) => !keys.has(k))).toEqual([]);
      for (const words of Object.values(p.labels ?? {})) for (const w of words) expect(w).toBe(w.toLowerCase());
      for (const re of [
        ...(p.legalForms ?? []),
        ...(p.itemCodeLabels ?? []),
        ...(p.phraseHeads ?? []),
        ...Object.values({ ...p.phrases, ...p.accentedPhrases }).flat(),
      ])
        expect(() => new RegExp(re)).not.toThrow();
      for (const m of p.currencyMarks ?? [])
        for (const re of [m.mark, m.detect, m.scan ?? '']) expect(() => new RegExp(re, 'u')).not.toThrow();
      for (const re of p.registrationCodes ?? []) expect(() => new RegExp(re)).not.toThrow();
      if (p.months) expect(p.months).toHaveLength(12);
      for (const k of [
        'vatNames',
        'months',
        'ordinals',
        'textWords',
        'yearWords',
        'phoneWords',
        'lawReferences',
        'excluding',
        'including',
        'taxWords',
        'labelFillers',
        'connectors',
        'carryOver',
        'deliveryLabels',
      ] as const)
        for (const w of [p[k] ?? []].flat(2)) expect(w).toBe(w.toLowerCase());
    }
  });

  it('always activates the generic language packs and a country pack only on evidence', () => {
    const plain = detectLocales('Invoice 17 from Nordwind Werkzeuge GmbH, Maple Road 12', 'EUR');
    expect(plain).toEqual(expect.arrayContaining(['en', 'de', 'fr', 'nl']));
    expect(plain).not.toContain('ms-MY');
    // Its currency and one of its words, or two of its words, show the country.
    expect(detectLocales('KEDAI BUKU CERIA, 12 JALAN MAWAR', 'MYR')).toContain('ms-MY');
    expect(detectLocales('CERIA SDN BHD, 12 JALAN MAWAR', undefined)).toContain('ms-MY');
    expect(detectLocales('12 Jalan Mawar', 'USD')).not.toContain('ms-MY');
  });

  it('builds one legal-form pattern from the active packs, longest form first', () => {
    const v = vocabularyFor(['en', 'de', 'fr']);
    expect(v.legalForm.exec('Nordwind Werkzeuge GmbH & Co. KG')?.[1]).toBe('Nordwind Werkzeuge GmbH & Co. KG');
    expect(v.legalForm.exec('Atelier Lumière S.A.S.')?.[1]).toBe('Atelier Lumière S.A.S.');
    expect(v.legalForm.exec('Ceria Buku Sdn Bhd')).toBeNull();
    expect(vocabularyFor(['en', 'ms-MY']).legalForm.exec('Ceria Buku Sdn Bhd')?.[1]).toBe('Ceria Buku Sdn Bhd');
  });

  it('ends a legal name before a registration code in brackets printed without a space, and reads title-case forms', () => {
    const my = vocabularyFor(['en', 'ms-MY']);
    expect(my.legalForm.exec('CERIA BUKU (XY) SDN BHD(123456 Q)')?.[1]).toBe('CERIA BUKU (XY) SDN BHD');
    expect(my.legalForm.exec('Ceria Buku Enterprise')?.[1]).toBe('Ceria Buku Enterprise');
    // (A bracket holding no figure is no registration code.)
    expect(my.legalForm.exec('CERIA BUKU SDN BHD(XY)')).toBeNull();
  });
});

describe('compiled word lists', () => {
  const v = allPacksVocabulary();

  it('reads month names of every language, and day suffixes', () => {
    expect(['march', 'märz', 'mars', 'maart', 'mrz'].map((m) => v.months.get(m))).toEqual([3, 3, 3, 3, 3]);
    expect(new RegExp(`^(?:${v.monthPattern})$`, 'i').test('Décembre')).toBe(true);
    expect(v.monthPattern.indexOf('september')).toBeLessThan(v.monthPattern.indexOf('sept|'));
    expect(v.ordinalPattern.split('|')).toEqual(expect.arrayContaining(['st', 'th', 'er']));
  });

  it('splits running-text words by the date order their language suggests', () => {
    expect(v.textWords.monthFirst.has('the')).toBe(true);
    expect(v.textWords.other.has('und')).toBe(true);
    expect(v.textWords.other.has('the')).toBe(false);
  });

  it('recognises year, phone and postcode words before a number', () => {
    expect(v.yearWord.test('Geschäftsjahr: ')).toBe(true);
    expect(v.yearWord.test('© ')).toBe(true);
    expect(v.yearWord.test('Total ')).toBe(false);
    expect(v.lawReference.test('TVA non applicable, art. ')).toBe(true);
    expect(v.lawReference.test('Steuerbefreit nach § ')).toBe(true);
    expect(v.lawReference.test('Total TTC ')).toBe(false);
    expect(v.phoneWord.test('Tél. ')).toBe(true);
    expect(v.phoneWord.test('Telex ')).toBe(false);
    expect(v.postcodePrefix.test('Bahnhofstrasse 1, CH-')).toBe(true);
    expect(v.postcodePrefix.test('ch-')).toBe(false);
  });

  it('recognises item code labels and legal forms printed alone, loosely', () => {
    expect(v.itemCodeLabel.exec('Art.-Nr. 4711')?.[0]).toBe('Art.-Nr.');
    expect(v.itemCodeLabel.exec('Serial number 7Q44')?.[0]).toBe('Serial number');
    expect(v.itemCodeLabel.test('Description 5')).toBe(false);
    for (const f of ['GmbH', 'gmbh & co kg', 'S.A', 'e. K.', 'Sp. z o. o.', 'Co.,Ltd', 'Sdn Bhd'])
      expect(v.legalFormOnly.test(f)).toBe(true);
    expect(v.legalFormOnly.test('Acme GmbH')).toBe(false);
  });

  it('compiles label phrases, accented ones apart', () => {
    const replace = (s: string, table: readonly [RegExp, string][]) =>
      table
        .reduce((t, [re, to]) => t.replace(re, to), s)
        .trim()
        .replace(/\s+/g, ' ');
    expect(replace('bill to', v.phrases.folded)).toBe('buyer');
    expect(replace('net a payer', v.phrases.folded)).toBe('total');
    expect(replace('exmo.(s) sr.(s)', v.phrases.folded)).toBe('buyer');
    expect(replace('facturé à', v.phrases.accented)).toBe('buyer');
    expect(replace('facture à régler', v.phrases.accented)).toBe('facture à régler');
    expect('hors taxes'.replace(v.netPhrase, 'net')).toBe('net');
    expect('incl. of gst'.replace(v.grossPhrase, 'total')).toBe('total');
    expect(v.phraseHead.test('excl.')).toBe(true);
    expect(v.phraseHead.test('amount')).toBe(false);
  });

  it('compiles table and label words', () => {
    expect(v.labelFillers.has('der')).toBe(true);
    expect(v.addresseeCell.test('To:')).toBe(true);
    expect(v.carryOver.test('a  reporter')).toBe(true);
    expect(v.carryOver.test('reporting')).toBe(false);
    expect(v.tableNote.test('Sources: x')).toBe(true);
    expect(v.pageRef.exec('table on page 3')?.[1]).toBe('3');
    expect(v.totalModifiers.has('grand')).toBe(true);
    expect(v.connectors.has('und')).toBe(true);
    expect(v.deliveryLabel.test('lieferadresse')).toBe(true);
  });

  it('is compiled once per pack set; without ids every pack applies', () => {
    expect(vocabularyFor(['en', 'de'])).toBe(vocabularyFor(['de', 'en']));
    expect(vocabularyOrAll(undefined)).toBe(allPacksVocabulary());
    expect(vocabularyOrAll(['en']).deliveryLabel.test('lieferadresse')).toBe(false);
  });
});

describe('correctWords (whole-token OCR correction against a locale dictionary)', () => {
  const my = vocabularyFor(['en', 'ms-MY']);

  it('restores a dictionary word read with one look-alike letter, keeping case', () => {
    expect(correctWords('LOT 9, JALAM MERAH, TRMAN SURIA 2210-THN JAYA', my)).toBe('LOT 9, JALAN MERAH, TAMAN SURIA 2210-TMN JAYA');
    expect(correctWords('Jalam Ros, Kota Beta', my)).toBe('Jalan Ros, Kota Beta');
  });

  it('restores a long dictionary word read with any one wrong letter', () => {
    expect(correctWords('Lot 4, Kawasan Perindustrlan Quolu', my)).toBe('Lot 4, Kawasan Perindustrian Quolu');
    expect(correctWords('PERSIARAW BUNGA, SELANGOK', my)).toBe('PERSIARAN BUNGA, SELANGOR');
    // Two wrong letters, or a short word with an unlisted difference, stay as read.
    expect(correctWords('PERSIARWW BUNGA', my)).toBe('PERSIARWW BUNGA');
  });

  it('leaves words whose difference is no OCR look-alike, and whole words it does not know', () => {
    expect(correctWords('Tokyo, JAPAN', my)).toBe('Tokyo, JAPAN');
    expect(correctWords('12 Koala Drive', my)).toBe('12 Koala Drive');
    expect(correctWords('THE SABAK MARKET TAN', my)).toBe('THE SABAK MARKET TAN');
  });

  it('restores a dictionary phrase with one wrong letter in one word, across a dot and in the case read', () => {
    expect(correctWords('Quick Fox Trading Sdn.Rhd', my)).toBe('Quick Fox Trading Sdn.Bhd');
    expect(correctWords('BLUE OWL (XY) SDN. BHZ', my)).toBe('BLUE OWL (XY) SDN. BHD');
    expect(correctWords('BLUE OWL SON BHD', my)).toBe('BLUE OWL SDN BHD');
    // Two wrong words, or a phrase whose other word is in neither capitals nor title case, stay as read.
    expect(correctWords('BLUE OWL SON BHZ', my)).toBe('BLUE OWL SON BHZ');
    expect(correctWords('blue owl sDn bhz', my)).toBe('blue owl sDn bhz');
  });

  it("reads the Malaysian pack's misread house-number and level words and state names back", () => {
    expect(correctWords('Leve1 2, Wisma Contoh, N0 7, Jalan Mawar, 12345 Kota Beta, SELANGOR IARUL EHSAN', my)).toBe(
      'Level 2, Wisma Contoh, NO 7, Jalan Mawar, 12345 Kota Beta, SELANGOR DARUL EHSAN',
    );
    // (A zero after N is only a house-number word when a figure follows.)
    expect(correctWords('CODE N0X', my)).toBe('CODE N0X');
  });

  it('changes nothing when no pack with a dictionary is active', () => {
    expect(correctWords('LOT 9, JALAM MERAH, TRMAN SURIA', vocabularyFor(['en', 'de']))).toBe('LOT 9, JALAM MERAH, TRMAN SURIA');
  });
});

describe('pinning locale packs (a template setting)', () => {
  it('applies a named country pack to a document that shows no evidence of it', async () => {
    const { extractFromLayout } = await import('../extraction.engine.js');
    const { readText } = await import('../readers/text.reader.js');
    const text = ['KEDAI CONTOH', 'NO 5, JALAM MAWAR,', 'TRMAN CERIA', 'Total 5.00'].join('\n');
    const schema = { fields: [{ key: 'address', label: 'Address', data_type: 'string' as const }] };
    const plain = extractFromLayout(readText(new TextEncoder().encode(text)), schema).result.address;
    const pinned = extractFromLayout(readText(new TextEncoder().encode(text)), schema, { locales: ['ms-MY', 'xx-unknown'] }).result.address;
    // (Without the pack its street words are unknown here, so no line reads as an address; with it the block is found.)
    expect(plain).toBeUndefined();
    expect(pinned).toBe('NO 5, JALAM MAWAR, TRMAN CERIA');
  });
});

describe('currency marks, tax names and registration codes from the packs', () => {
  it('reads letter currency marks, a value-added tax name and a registration-code line only through the packs', async () => {
    const { detectCurrency } = await import('../parsers/currency.parser.js');
    const { isRegistrationCode } = await import('../locate/address.block.js');
    const { VAT_NAME } = await import('./locale.registry.js');
    expect(detectCurrency('RM 12.50')).toBe('MYR');
    expect(detectCurrency('Rs. 400')).toBe('INR');
    expect(detectCurrency('12,00 zł')).toBe('PLN');
    expect(VAT_NAME.test('Total incl. GST')).toBe(true);
    expect(VAT_NAME.test('Sales tax 8%')).toBe(false);
    expect(isRegistrationCode('(000123-X)')).toBe(true);
    expect(isRegistrationCode('Invoice 2207')).toBe(false);
  });
});

describe('invoice words of every language pack', () => {
  const schema = {
    fields: [
      { key: 'invoice_number', label: 'Invoice number', data_type: 'string' as const },
      { key: 'invoice_date', label: 'Invoice date', data_type: 'date' as const },
      { key: 'due_date', label: 'Due date', data_type: 'date' as const },
      { key: 'net_amount', label: 'Net amount', data_type: 'number' as const },
      { key: 'tax_amount', label: 'Tax amount', data_type: 'number' as const },
    ],
  };
  const read = async (lines: string[]) => {
    const { extractFromLayout } = await import('../extraction.engine.js');
    const { readText } = await import('../readers/text.reader.js');
    return extractFromLayout(readText(new TextEncoder().encode(lines.join('\n'))), schema).result;
  };

  it('reads a Croatian invoice by its own labels', async () => {
    const r = await read([
      'Obrt Jadran',
      'Račun broj       44-1-1',
      'Datum            07.10.2025',
      'Dospijeće        21.10.2025',
      '',
      'Osnovica           400,00',
      'PDV                100,00',
      'Ukupno             500,00',
    ]);
    expect(r).toMatchObject({
      invoice_number: '44-1-1',
      invoice_date: '2025-10-07',
      due_date: '2025-10-21',
      net_amount: 400,
      tax_amount: 100,
    });
  });
});
