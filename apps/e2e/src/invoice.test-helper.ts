import PDFDocument from 'pdfkit';

/** A small born-digital invoice with a text layer, made fresh for each run. */
export function invoicePdf(lines: string[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4', margin: 50 });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.fontSize(20).text('INVOICE', { align: 'left' });
    doc.moveDown();
    doc.fontSize(11);
    for (const line of lines) doc.text(line);
    doc.end();
  });
}
