import { describe, expect, it } from '@jest/globals';
import { extractFromLayout } from '../extraction.engine.js';
import { ocrReceipt } from '../testing/receipt-layout.test-helper.js';
import { readText } from '../readers/text.reader.js';
import type { ExtractionSchema } from '../engine.types.js';
import { vocabularyFor } from '../locales/locale.vocabulary.js';
import { withoutBranch } from './semantic.fallback.js';

// Synthetic receipt layouts (all names, numbers and addresses invented): different orders of name, registration
// number, address, phone and tax id; addresses of two to five lines; totals under different labels with cash,
// change, subtotal, discount, rounding and tax-summary lines around them.

const receiptSchema = {
  fields: [
    {
      key: 'company',
      label: 'Company name',
      data_type: 'string' as const,
      description: 'Name of the shop or company that issued the receipt.',
    },
    { key: 'date', label: 'Date', data_type: 'date' as const, description: 'Date of the purchase.' },
    { key: 'address', label: 'Address', data_type: 'string' as const, description: "The shop's address as printed on the receipt." },
    { key: 'total', label: 'Total', data_type: 'number' as const, description: 'Total amount paid, including tax and rounding.' },
  ],
};

interface Case {
  name: string;
  lines: string[];
  want: Record<string, unknown>;
}

const cases: Case[] = [
  {
    name: 'A grand total, name/reg/addr/tel/gst',
    lines: [
      'KEDAI MAKANAN SRI JAYA',
      '(JM0543210-T)',
      'NO 5, JALAN MERANTI 2,',
      'TAMAN MERANTI,',
      '47990 PEKAN ALFA, SELANGOR',
      'TEL: 03-8060 1234',
      'GST REG NO: 000123456789',
      'TAX INVOICE',
      'DATE: 12/05/2018   TIME: 13:45',
      'NASI LEMAK          2   10.00',
      'TEH TARIK           2    6.00',
      'SUBTOTAL                 16.00',
      'GST 6%                    0.96',
      'GRAND TOTAL              16.96',
      'CASH                     50.00',
      'CHANGE                   33.04',
    ],
    want: {
      company: 'KEDAI MAKANAN SRI JAYA',
      date: '2018-05-12',
      address: 'NO 5, JALAN MERANTI 2, TAMAN MERANTI, 47990 PEKAN ALFA, SELANGOR',
      total: 16.96,
    },
  },
  {
    name: 'B reg before name, TOTAL (RM)',
    lines: [
      'CO. REG NO: 654321-X',
      'GOLDEN BAKERY SDN BHD',
      '12, JALAN CONTOH RAYA,',
      '50250 KOTA BETA',
      'GST ID: 001234567890',
      'Receipt #: 88123',
      'Date: 03-07-2017 10:02',
      'BUN x3                 4.50',
      'CAKE x1                12.00',
      'TOTAL (RM)             16.50',
      'CASH                   20.00',
      'CHANGE                  3.50',
    ],
    want: { company: 'GOLDEN BAKERY SDN BHD', date: '2017-07-03', address: '12, JALAN CONTOH RAYA, 50250 KOTA BETA', total: 16.5 },
  },
  {
    name: 'C phone before address, NETT TOTAL',
    lines: [
      'RESTORAN MAJU JAYA',
      'TEL: 07-3345678',
      'NO. 22, JALAN CONTOH 10/2,',
      'BANDAR BARU CONTOH JAYA,',
      '81990 PEKAN ZETA, JOHOR.',
      'INVOICE NO: 10023',
      '15/08/2018 19:22',
      'MEE GORENG         6.50',
      'AIS KOSONG         0.50',
      'TOTAL              7.00',
      'DISCOUNT           0.70',
      'NETT TOTAL         6.30',
      'CASH              10.00',
      'CHANGE             3.70',
    ],
    want: {
      company: 'RESTORAN MAJU JAYA',
      date: '2018-08-15',
      address: 'NO. 22, JALAN CONTOH 10/2, BANDAR BARU CONTOH JAYA, 81990 PEKAN ZETA, JOHOR.',
      total: 6.3,
    },
  },
  {
    name: 'D rounded total',
    lines: [
      'SYARIKAT HUP SENG HARDWARE',
      '(002345678-D)',
      'LOT 8, JALAN INDUSTRI 3,',
      'KAWASAN PERINDUSTRIAN BUKIT CONTOH,',
      '48990 PEKAN ETA,',
      'SELANGOR DARUL EHSAN.',
      'TEL: 03-6028 1111  FAX: 03-6028 2222',
      'CASH BILL',
      'Date : 01/02/2018',
      'PAINT 5L         2 x 45.50     91.00',
      'SUB TOTAL                     91.00',
      'GST 0%                         0.00',
      'TOTAL                         91.00',
      'ROUNDING ADJ                   0.00',
      'ROUNDED TOTAL                 91.00',
      'CASH                         100.00',
      'CHANGE                         9.00',
    ],
    want: {
      company: 'SYARIKAT HUP SENG HARDWARE',
      date: '2018-02-01',
      address: 'LOT 8, JALAN INDUSTRI 3, KAWASAN PERINDUSTRIAN BUKIT CONTOH, 48990 PEKAN ETA, SELANGOR DARUL EHSAN.',
      total: 91.0,
    },
  },
  {
    name: 'E amount due',
    lines: [
      'GREEN LEAF PHARMACY',
      'GST REG NO. 000987654321',
      'NO 3 & 5, JALAN SS 2/61,',
      '47300 BANDAR GAMMA',
      'Date: 22/09/2017 Time: 11:05',
      'VITAMIN C 1000MG     1   35.90',
      'PLASTER              2    5.80',
      'SUBTOTAL                 41.70',
      'AMOUNT DUE               41.70',
      'VISA                     41.70',
      'CHANGE DUE                0.00',
    ],
    want: { company: 'GREEN LEAF PHARMACY', date: '2017-09-22', address: 'NO 3 & 5, JALAN SS 2/61, 47300 BANDAR GAMMA', total: 41.7 },
  },
  {
    name: 'F total with RM column + big cash',
    lines: [
      'UNIQUE MART ENTERPRISE',
      '(SA0123456-P)',
      'NO 61, JALAN PASAR BARU,',
      '34000 TAIPING, PERAK',
      'TAX INVOICE',
      'Date:05/06/2018',
      'MILO 1KG              1    RM 18.90',
      'SUGAR 2KG             1    RM  5.60',
      'TOTAL                      RM 24.50',
      'CASH                       RM 100.00',
      'CHANGE                     RM 75.50',
    ],
    want: { company: 'UNIQUE MART ENTERPRISE', date: '2018-06-05', address: 'NO 61, JALAN PASAR BARU, 34000 TAIPING, PERAK', total: 24.5 },
  },
  {
    name: 'G five-line address, GST summary with total',
    lines: [
      'TEA GARDEN CAFE',
      'LOT G-12, UPPER STOREY,',
      'BLOCK B, PLAZA CEMPAKA,',
      'JALAN SRI MURNI 1,',
      '50480 KOTA BETA,',
      'WILAYAH PERSEKUTUAN.',
      'GST ID : 000111222333',
      'INV: A00123   DATE: 11/11/2017',
      'LATTE          2    24.00',
      'CAKE           1    12.00',
      'Total Qty: 3',
      'Subtotal (excl GST)        33.96',
      'GST 6%                      2.04',
      'TOTAL (RM)                 36.00',
      'CASH                       40.00',
      'CHANGE                      4.00',
      'GST SUMMARY   AMOUNT(RM)  TAX(RM)',
      'SR @ 6%        33.96      2.04',
      'TOTAL          33.96      2.04',
    ],
    want: {
      company: 'TEA GARDEN CAFE',
      date: '2017-11-11',
      address: 'LOT G-12, UPPER STOREY, BLOCK B, PLAZA CEMPAKA, JALAN SRI MURNI 1, 50480 KOTA BETA, WILAYAH PERSEKUTUAN.',
      total: 36.0,
    },
  },
  {
    name: 'H total incl gst label, items total qty',
    lines: [
      'ECO SHOP MARKETING SDN BHD',
      'Co Reg: 1234567-T',
      'LOT 23, JALAN KENANGA,',
      'TAMAN KENANGA,',
      '75200 MELAKA',
      'GST Reg: 000555666777',
      'Tax Invoice: 77/2018',
      '2018-04-17 14:22',
      'ITEM A            2.12',
      'ITEM B            2.12',
      'Total Items: 2',
      'Total incl. GST 6%           4.24',
      'Rounding                    +0.01',
      'Total Payable               4.25',
      'Cash                        5.00',
      'Change                      0.75',
    ],
    want: {
      company: 'ECO SHOP MARKETING SDN BHD',
      date: '2018-04-17',
      address: 'LOT 23, JALAN KENANGA, TAMAN KENANGA, 75200 MELAKA',
      total: 4.25,
    },
  },
  {
    name: 'I name two lines brand + legal',
    lines: [
      'SUNSHINE',
      'SUNSHINE WHOLESALE MART SDN BHD',
      '(Co. No. 987654-A)',
      'NO 62, JALAN TUN SAMBANTHAN,',
      '10470 PENANG',
      'Tel: 04-1234567',
      'Date: 30/06/2018',
      'RICE 5KG        1   17.50',
      'TOTAL SALES INCL GST     17.50',
      'CASH                    20.00',
      'CHANGE                   2.50',
    ],
    want: {
      company: 'SUNSHINE WHOLESALE MART SDN BHD',
      date: '2018-06-30',
      address: 'NO 62, JALAN TUN SAMBANTHAN, 10470 PENANG',
      total: 17.5,
    },
  },
  {
    name: 'J date with month name and 2-line address',
    lines: [
      'KEDAI BUKU ILMU',
      'NO 93, JALAN MASJID,',
      '02000 KUALA PERLIS',
      '13 Mar 2018  12:01PM',
      'BUKU TULIS 3 x 1.20      3.60',
      'PEN 2 x 1.50             3.00',
      'TOTAL                    6.60',
      'TUNAI                   10.00',
      'BAKI                     3.40',
    ],
    want: { company: 'KEDAI BUKU ILMU', date: '2018-03-13', address: 'NO 93, JALAN MASJID, 02000 KUALA PERLIS', total: 6.6 },
  },
  {
    name: 'Q iso date, total amount glued RM',
    lines: [
      'MINI MARKET ANEKA',
      'NO. 12A, JALAN DATO BANDAR TUNGGAL,',
      '70000 SEREMBAN,',
      'NEGERI SEMBILAN',
      'Date: 2018-01-05 10:22',
      'ROTI 2.40',
      'SUSU 6.90',
      'TOTAL AMOUNT: RM9.30',
      'CASH RECEIVED: RM10.00',
      'CHANGE: RM0.70',
    ],
    want: {
      company: 'MINI MARKET ANEKA',
      date: '2018-01-05',
      address: 'NO. 12A, JALAN DATO BANDAR TUNGGAL, 70000 SEREMBAN, NEGERI SEMBILAN',
      total: 9.3,
    },
  },
  {
    name: 'R total after rounding',
    lines: [
      'MEGA BELI (M) SDN BHD',
      '(123456-U)',
      'LOT 1, PERSIARAN CONTOH,',
      'CU 1, 47600 BANDAR DELTA',
      'GST ID: 000111000111',
      '05.02.2018 18:30',
      'ITEM A     10.12',
      'ITEM B      6.81',
      'TOTAL       16.93',
      'ROUNDING ADJUSTMENT  0.02',
      'TOTAL AFTER ROUNDING  16.95',
      'CASH  20.00',
      'CHANGE  3.05',
    ],
    want: {
      company: 'MEGA BELI (M) SDN BHD',
      date: '2018-02-05',
      address: 'LOT 1, PERSIARAN CONTOH, CU 1, 47600 BANDAR DELTA',
      total: 16.95,
    },
  },
  {
    name: 'S service charge',
    lines: [
      'WARUNG PAK ALI',
      'JALAN TEMERLOH,',
      '28000 TEMERLOH, PAHANG',
      '5 JAN 18 8:01PM',
      'NASI 5.00',
      'AYAM 8.00',
      'IKAN 3.00',
      'Sub Total      16.00',
      'Service Charge 10%  1.60',
      'GST 6%   1.06',
      'Total     18.66',
      'Cash   20.00',
      'Change  1.34',
    ],
    want: { company: 'WARUNG PAK ALI', date: '2018-01-05', address: 'JALAN TEMERLOH, 28000 TEMERLOH, PAHANG', total: 18.66 },
  },
  {
    name: 'T no address postcode',
    lines: [
      'KEDAI RUNCIT LIM',
      'NO 7, JALAN CONTOH,',
      'KUALA PILAH',
      'Date 06/06/2017',
      'GULA 2.80',
      'TOTAL 2.80',
      'CASH 5.00',
      'CHANGE 2.20',
    ],
    want: { company: 'KEDAI RUNCIT LIM', date: '2017-06-06', address: 'NO 7, JALAN CONTOH, KUALA PILAH', total: 2.8 },
  },
  {
    name: 'U welcome line',
    lines: [
      'WELCOME TO',
      'FAMILY MART',
      'FM RETAIL SDN BHD (1065871-V)',
      'LOT G-01, MENARA A,',
      'JALAN AMPANG, 50450 KOTA BETA',
      'DATE: 12/12/2017',
      'TOTAL 8.50',
      'CASH 10.00',
      'CHANGE 1.50',
    ],
    want: { company: 'FM RETAIL SDN BHD', date: '2017-12-12', address: 'LOT G-01, MENARA A, JALAN AMPANG, 50450 KOTA BETA', total: 8.5 },
  },
  {
    name: 'V gst summary with total row + rounding',
    lines: [
      'TECK HIN TRADING',
      '(001234567-W)',
      'NO 63, JALAN SATU,',
      '83990 PEKAN THETA, JOHOR',
      'Date: 10/10/2017',
      'A 10.60',
      'B 12.32',
      'TOTAL INCL GST  22.92',
      'ROUNDING  -0.02',
      'TOTAL PAYABLE  22.90',
      'CASH  50.00',
      'CHANGE  27.10',
      'GST SUMMARY   AMOUNT   TAX',
      'SR  21.62  1.30',
      'TOTAL  21.62  1.30',
    ],
    want: { company: 'TECK HIN TRADING', date: '2017-10-10', address: 'NO 63, JALAN SATU, 83990 PEKAN THETA, JOHOR', total: 22.9 },
  },
  {
    name: 'W net total only',
    lines: [
      'RESTORAN SRI MELATI',
      'NO 68, JALAN MELATI 1,',
      '53100 KOTA BETA',
      'Date: 19/07/2018',
      'NASI GORENG  8.00',
      'TEH O  1.50',
      'Sub Total  9.50',
      'Discount  0.00',
      'Net Total  9.50',
      'Cash  20.00',
      'Change  10.50',
    ],
    want: { company: 'RESTORAN SRI MELATI', date: '2018-07-19', address: 'NO 68, JALAN MELATI 1, 53100 KOTA BETA', total: 9.5 },
  },
  {
    name: 'X excluded/GST/inclusive',
    lines: [
      'PASARAYA MURNI SDN BHD',
      '(778899-P)',
      'NO 71-73, JALAN MURNI,',
      'TAMAN MURNI,',
      '08000 SUNGAI PETANI, KEDAH',
      'GST NO: 000222333444',
      'Bill No: 1001',
      'Date: 21/01/2018',
      'BERAS 5KG  1  33.96',
      'Total Excluded GST:  33.96',
      'Total GST:  2.04',
      'Total Inclusive GST:  36.00',
      'Cash  50.00',
      'Change  14.00',
    ],
    want: {
      company: 'PASARAYA MURNI SDN BHD',
      date: '2018-01-21',
      address: 'NO 71-73, JALAN MURNI, TAMAN MURNI, 08000 SUNGAI PETANI, KEDAH',
      total: 36.0,
    },
  },
  {
    name: 'Y total qty after total and card',
    lines: [
      'GADGET WORLD ENTERPRISE',
      'NO 18, JALAN CU 5/3,',
      '47810 BANDAR GAMMA',
      'TEL: 03-7777 8888',
      'Date: 02/03/2018 4:55PM',
      'CABLE  1  25.00',
      'CHARGER  1  59.00',
      'TOTAL  84.00',
      'MASTER CARD  84.00',
      'TOTAL QTY  2',
    ],
    want: { company: 'GADGET WORLD ENTERPRISE', date: '2018-03-02', address: 'NO 18, JALAN CU 5/3, 47810 BANDAR GAMMA', total: 84.0 },
  },
  {
    name: 'Z total amt payable, name + branch',
    lines: [
      'KEDAI UBAT CINA TONG SENG',
      '(JM0667788-U)',
      'NO 21, JALAN KUNING,',
      'TAMAN PELANGI,',
      '80400 KOTA EPSILON.',
      '26/04/2018',
      'HERBA  2  15.00',
      'Total Amt Payable:  RM 30.00',
      'Paid Amount:  RM 50.00',
      'Change:  RM 20.00',
    ],
    want: {
      company: 'KEDAI UBAT CINA TONG SENG',
      date: '2018-04-26',
      address: 'NO 21, JALAN KUNING, TAMAN PELANGI, 80400 KOTA EPSILON.',
      total: 30.0,
    },
  },
  {
    name: 'X2 inclusive before excluded',
    lines: [
      'PASARAYA MURNI SDN BHD',
      '(778899-P)',
      'NO 71-73, JALAN MURNI,',
      'TAMAN MURNI,',
      '08000 SUNGAI PETANI, KEDAH',
      'GST NO: 000222333444',
      'Bill No: 1001',
      'Date: 21/01/2018',
      'BERAS 5KG  1  33.96',
      'Total Inclusive GST:  36.00',
      'Total Excluded GST:  33.96',
      'Total GST:  2.04',
      'Cash  50.00',
      'Change  14.00',
    ],
    want: {
      company: 'PASARAYA MURNI SDN BHD',
      date: '2018-01-21',
      address: 'NO 71-73, JALAN MURNI, TAMAN MURNI, 08000 SUNGAI PETANI, KEDAH',
      total: 36.0,
    },
  },
  {
    name: 'AA welcome no legal',
    lines: [
      'WELCOME TO',
      'ANEKA BAKERY HOUSE',
      'NO 62, JALAN MAJU,',
      '31400 IPOH, PERAK',
      'Date: 08/08/2018',
      'ROTI  3.00',
      'TOTAL  3.00',
      'CASH  5.00',
      'CHANGE  2.00',
    ],
    want: { company: 'ANEKA BAKERY HOUSE', date: '2018-08-08', address: 'NO 62, JALAN MAJU, 31400 IPOH, PERAK', total: 3.0 },
  },
  {
    name: 'AB reg on name line, original receipt heading',
    lines: [
      'ORIGINAL RECEIPT',
      'KEDAI MAKANAN SRI JAYA (JM0543210-T)',
      'NO 5, JALAN MERANTI 2,',
      '47990 PEKAN ALFA, SELANGOR',
      'Date: 12/05/2018',
      'TOTAL  16.96',
      'CASH  50.00',
    ],
    want: {
      company: 'KEDAI MAKANAN SRI JAYA',
      date: '2018-05-12',
      address: 'NO 5, JALAN MERANTI 2, 47990 PEKAN ALFA, SELANGOR',
      total: 16.96,
    },
  },
  {
    name: 'AC gst id before name',
    lines: [
      'GST REG NO: 000123456789',
      'HUP LEE HARDWARE SDN BHD',
      '(223344-K)',
      'LOT 9, JALAN BESI,',
      'KAWASAN PERINDUSTRIAN SRI,',
      '70450 SEREMBAN',
      'Date: 14/02/2018',
      'TOTAL RM  45.00',
      'CASH  50.00',
      'CHANGE  5.00',
    ],
    want: {
      company: 'HUP LEE HARDWARE SDN BHD',
      date: '2018-02-14',
      address: 'LOT 9, JALAN BESI, KAWASAN PERINDUSTRIAN SRI, 70450 SEREMBAN',
      total: 45.0,
    },
  },
  {
    name: 'AD address with unit/level',
    lines: [
      'BUKUMAX ENTERPRISE',
      '(001122334-M)',
      'LEVEL 2, UNIT 2-15,',
      'CONTOH PLAZA,',
      'JALAN CS 11/15,',
      '46150 BANDAR GAMMA',
      'TEL: 03-5555 1212',
      'INVOICE: 1204',
      'DATE: 09/09/2018',
      'NOVEL  2  40.00',
      'TOTAL:  40.00',
      'CASH:  50.00',
      'CHANGE:  10.00',
    ],
    want: {
      company: 'BUKUMAX ENTERPRISE',
      date: '2018-09-09',
      address: 'LEVEL 2, UNIT 2-15, CONTOH PLAZA, JALAN CS 11/15, 46150 BANDAR GAMMA',
      total: 40.0,
    },
  },
  {
    name: 'AE ambiguous date, no currency sign, English footer',
    lines: [
      'MAJU JAYA TRADING',
      '(JM0111222-X)',
      'NO 64, JALAN PASAR,',
      '45000 KUALA SELANGOR',
      'GST ID: 000444555666',
      'Date: 05/06/2018',
      'SABUN  2  7.00',
      'TOTAL  7.00',
      'CASH  10.00',
      'CHANGE  3.00',
      'THANK YOU FOR SHOPPING WITH US',
      'PLEASE COME AGAIN',
      'GOODS SOLD ARE NOT RETURNABLE AND REFUNDABLE',
    ],
    want: { company: 'MAJU JAYA TRADING', date: '2018-06-05', address: 'NO 64, JALAN PASAR, 45000 KUALA SELANGOR', total: 7.0 },
  },
  {
    name: 'AF garbled total label, cash and change',
    lines: [
      'KEDAI RUNCIT SEJAHTERA',
      'NO 11, JALAN MAWAR,',
      '36000 TELUK INTAN, PERAK',
      'Date: 14/03/2018',
      'MINYAK  1  12.50',
      'GULA  2  5.60',
      'T otal  18.10',
      'CASH  50.00',
      'CHANGE  31.90',
    ],
    want: { company: 'KEDAI RUNCIT SEJAHTERA', date: '2018-03-14', address: 'NO 11, JALAN MAWAR, 36000 TELUK INTAN, PERAK', total: 18.1 },
  },
  {
    name: 'AG Malay labels',
    lines: [
      'KEDAI KOPI SELERA',
      'NO 6, JALAN STESEN,',
      '35000 TAPAH, PERAK',
      'Tarikh: 21/02/2018',
      'KOPI O  2  3.00',
      'ROTI BAKAR  2  4.00',
      'JUMLAH  7.00',
      'TUNAI  50.00',
    ],
    want: { company: 'KEDAI KOPI SELERA', date: '2018-02-21', address: 'NO 6, JALAN STESEN, 35000 TAPAH, PERAK', total: 7.0 },
  },
  {
    name: 'AH brand, then the brand with its branch over the address',
    lines: [
      'KOPI SENJA',
      'GST REF NO : 001122334455',
      'KOPI SENJA TAMAN ORKID',
      'Lot 27A, Jalan Orkid 3,',
      'Bandar Taman Orkid, 81990 Pekan Zeta',
      'Johor',
      'Date: 11/04/2018',
      'LATTE  1  12.40',
      'TOTAL  12.40',
      'CASH  20.00',
      'CHANGE  7.60',
    ],
    want: {
      company: 'KOPI SENJA',
      date: '2018-04-11',
      address: 'Lot 27A, Jalan Orkid 3, Bandar Taman Orkid, 81990 Pekan Zeta Johor',
      total: 12.4,
    },
  },
  {
    name: 'AI name with its mall on one line, the unit line ending in a comma',
    lines: [
      'SENJA',
      'ROASTERS',
      'SENJA ROASTERS CO. SENJA CITY MALL',
      'U.K12, Second Floor, Senja City Mall,',
      'Medan Contoh, Lingkaran Contoh,',
      '59990 Kota Beta.',
      'Date: 24-05-2018 4:29 PM',
      'Mocha  1  13.00',
      'Total  13.00',
      'Cash  20.00',
      'Change  7.00',
    ],
    want: {
      company: 'SENJA ROASTERS CO.',
      date: '2018-05-24',
      address: 'U.K12, Second Floor, Senja City Mall, Medan Contoh, Lingkaran Contoh, 59990 Kota Beta.',
      total: 13.0,
    },
  },
];

describe('receipt layouts', () => {
  it.each(cases)('$name (text layer)', ({ lines, want }) => {
    expect(extractFromLayout(readText(new TextEncoder().encode(lines.join('\n'))), receiptSchema).result).toEqual(want);
  });

  it.each(cases)('$name (OCR page)', ({ lines, want }) => {
    expect(extractFromLayout(ocrReceipt(lines), receiptSchema).result).toEqual(want);
  });
});

describe('labels that run on to a colon', () => {
  const read = (lines: string[], schema: ExtractionSchema = receiptSchema) =>
    extractFromLayout(readText(new TextEncoder().encode(lines.join('\n'))), schema).result;

  it('reads the amount after the whole label, not after its first word', () => {
    expect(read(['SHOP', 'Total Amt Payable:  RM 30.00', 'Paid Amount:  RM 50.00']).total).toBe(30);
    expect(read(['SHOP', 'Total Inclusive GST:  36.00', 'Cash:  50.00']).total).toBe(36);
  });

  it('keeps a complete label ending in a colon apart from the next label', () => {
    const schema = { fields: [{ key: 'invoice_date', label: 'Invoice date', data_type: 'date' as const }] };
    expect(read(['Date of issue: 12/03/2020'], schema).invoice_date).toBe('2020-03-12');
    expect(read(['Invoice Date:   Due Date: 01/04/2020', '            15/03/2020'], schema).invoice_date).not.toBe('2020-04-01');
  });
});

describe('withoutBranch', () => {
  const my = vocabularyFor(['en', 'ms-MY']);
  it('drops the branch printed after the name when the address under it repeats it', () => {
    expect(withoutBranch('KOPI SENJA TAMAN ORKID', 'Lot 27A, Jalan Orkid 3, Bandar Taman Orkid, 81990 Pekan Zeta', my)).toBe('KOPI SENJA');
  });
  it('keeps a name with a legal form, a name the address does not repeat, and a name that would keep one word', () => {
    expect(withoutBranch('KEDAI ORKID (TAMAN ORKID) SDN BHD', 'Lot 27A, Jalan Orkid 3, Taman Orkid', my)).toBe(
      'KEDAI ORKID (TAMAN ORKID) SDN BHD',
    );
    expect(withoutBranch('KOPI SENJA TAMAN MELUR', 'Lot 27A, Jalan Orkid 3, Taman Orkid', my)).toBe('KOPI SENJA TAMAN MELUR');
    expect(withoutBranch('SENJA TAMAN ORKID', 'Lot 27A, Jalan Orkid 3, Taman Orkid', my)).toBe('SENJA TAMAN ORKID');
  });
});
