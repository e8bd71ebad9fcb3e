import { Readable } from 'node:stream';
import { createDeflate, deflateSync } from 'node:zlib';

/** Size of the repeated block the bombs are deflated from (the test never holds the inflated bytes). */
const BLOCK_BYTES = 1024 * 1024;

/** `prefix` followed by spaces up to `size` bytes, Flate-compressed in a streaming way (memory: the output only). */
export async function deflatedPadding(prefix: string, size: number): Promise<Buffer> {
  const block = Buffer.alloc(BLOCK_BYTES, 0x20);
  async function* blocks() {
    yield Buffer.from(prefix, 'latin1');
    for (let left = size - prefix.length; left > 0; left -= BLOCK_BYTES) yield left >= BLOCK_BYTES ? block : block.subarray(0, left);
  }
  const chunks: Buffer[] = [];
  for await (const c of Readable.from(blocks()).pipe(createDeflate({ level: 1 }))) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** One indirect object: a dictionary, with stream data when `data` is given. */
export interface PdfObject {
  dict: string;
  data?: Buffer;
}

/** A PDF with a classic cross-reference table; object n is `objects[n - 1]`, object 1 the catalog. */
export function pdfFile(objects: PdfObject[]): Uint8Array {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n', 'latin1')];
  let offset = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(offset);
    const body = o.data
      ? Buffer.concat([
          Buffer.from(`${i + 1} 0 obj\n<< ${o.dict} /Length ${o.data.length} >>\nstream\n`, 'latin1'),
          o.data,
          Buffer.from('\nendstream\nendobj\n', 'latin1'),
        ])
      : Buffer.from(`${i + 1} 0 obj\n${o.dict}\nendobj\n`, 'latin1');
    parts.push(body);
    offset += body.length;
  });
  const xref = [
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`,
    ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`),
  ].join('');
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${offset}\n%%EOF\n`, 'latin1'));
  return new Uint8Array(Buffer.concat(parts));
}

const CATALOG = { dict: '<< /Type /Catalog /Pages 2 0 R >>' };
const PAGES = { dict: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>' };
const PAGE_TEXT = 'BT /F1 12 Tf 72 720 Td (Invoice Number: BOMB-1) Tj ET\n';
const FONT = { dict: '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>' };

/** A one-page PDF whose content stream inflates to `size` bytes (a line of text, then spaces). */
export async function contentStreamBomb(size: number): Promise<Uint8Array> {
  return pdfFile([
    CATALOG,
    PAGES,
    { dict: '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>' },
    { dict: '/Filter /FlateDecode', data: await deflatedPadding(PAGE_TEXT, size) },
    FONT,
  ]);
}

/** A one-page PDF painting one grey image (within the pixel limit) whose Flate stream inflates to `size` bytes. */
export async function imageStreamBomb(size: number): Promise<Uint8Array> {
  return pdfFile([
    CATALOG,
    PAGES,
    { dict: '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im1 5 0 R >> >> /Contents 4 0 R >>' },
    { dict: '', data: Buffer.from('q 612 0 0 792 0 0 cm /Im1 Do Q\n', 'latin1') },
    {
      dict: '/Type /XObject /Subtype /Image /Width 4000 /Height 4000 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode',
      data: await deflatedPadding('', size),
    },
  ]);
}

/**
 * A one-page PDF 1.5 whose catalog, page tree and page live in an object stream that inflates to `size` bytes
 * (the objects, then spaces), found through a cross-reference stream.
 */
export async function objectStreamBomb(size: number): Promise<Uint8Array> {
  const inner = [
    '<< /Type /Catalog /Pages 3 0 R >>',
    '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 3 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 6 0 R >> >> /Contents 5 0 R >>',
  ];
  let at = 0;
  const header = inner.map((o, i) => `${i + 2} ${(at += i ? inner[i - 1]!.length + 1 : 0)}`).join(' ') + '\n';
  const body = header + inner.join('\n') + '\n';
  const objStm = { dict: `/Type /ObjStm /N 3 /First ${header.length} /Filter /FlateDecode`, data: await deflatedPadding(body, size) };
  const content = { dict: '', data: Buffer.from(PAGE_TEXT, 'latin1') };
  return xrefStreamFile(
    [objStm, content, FONT],
    [
      [2, 1, 0],
      [2, 1, 1],
      [2, 1, 2],
    ],
  );
}

/**
 * A PDF 1.5 file: `direct` objects are numbered 1, 5, 6 (around objects 2–4, which live in object stream 1 at the
 * given `[type, stream, index]` entries), then a cross-reference stream.
 */
function xrefStreamFile(direct: PdfObject[], packed: [number, number, number][]): Uint8Array {
  const numbers = [1, 2 + packed.length, 3 + packed.length];
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n', 'latin1')];
  let offset = parts[0]!.length;
  const offsets = new Map<number, number>();
  direct.forEach((o, i) => {
    offsets.set(numbers[i]!, offset);
    const body = o.data
      ? Buffer.concat([
          Buffer.from(`${numbers[i]} 0 obj\n<< ${o.dict} /Length ${o.data.length} >>\nstream\n`, 'latin1'),
          o.data,
          Buffer.from('\nendstream\nendobj\n', 'latin1'),
        ])
      : Buffer.from(`${numbers[i]} 0 obj\n${o.dict}\nendobj\n`, 'latin1');
    parts.push(body);
    offset += body.length;
  });
  const xrefNumber = numbers[numbers.length - 1]! + 1;
  offsets.set(xrefNumber, offset);
  const rows: number[][] = [[0, 0, 65535]];
  for (let n = 1; n < xrefNumber + 1; n++) rows.push(offsets.has(n) ? [1, offsets.get(n)!, 0] : packed[n - 2]!);
  const table = Buffer.alloc(rows.length * 7);
  rows.forEach(([t, a, b], i) => {
    table.writeUInt8(t!, i * 7);
    table.writeUInt32BE(a!, i * 7 + 1);
    table.writeUInt16BE(b!, i * 7 + 5);
  });
  const data = deflateSync(table);
  parts.push(
    Buffer.from(
      `${xrefNumber} 0 obj\n<< /Type /XRef /Size ${xrefNumber + 1} /W [1 4 2] /Root 2 0 R /Filter /FlateDecode /Length ${data.length} >>\nstream\n`,
      'latin1',
    ),
    data,
    Buffer.from(`\nendstream\nendobj\nstartxref\n${offset}\n%%EOF\n`, 'latin1'),
  );
  return new Uint8Array(Buffer.concat(parts));
}
