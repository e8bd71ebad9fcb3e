import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, it, jest } from '@jest/globals';
import { createExtractionEngine, type DocketExtractionEngine } from '../extraction.engine.js';
import { errorCodeOf } from '../testing/error.test-helper.js';
import { textCanvas } from '../testing/image.test-helper.js';

// Needs the built library (`tsc -b tsconfig.build.json`): the OCR reader processes run its compiled module. CPU is
// measured for this process's children (the readers), so a reader left running shows.
jest.setTimeout(120_000);

/** A page of invented text large enough that reading it takes seconds. */
function longPage(): Uint8Array {
  const lines = Array.from(
    { length: 36 },
    (_, i) => `Line ${i + 1}: Quillon Ardent Supplies order ${4100 + i * 7} shipped to Marrow Lane ${i + 3}`,
  );
  return new Uint8Array(textCanvas(lines, { width: 2480, font: '38px sans-serif', lineHeight: 90 }).toBuffer('image/png'));
}
const SCHEMA = { fields: [{ key: 'order', label: 'Order', data_type: 'string' as const }] };
/** How long the deadline lets the reading run before it passes (the reading is still in progress then). */
const DEADLINE_MS = 1500;
/** Window over which the process's CPU time is measured once the extraction has failed. */
const QUIET_WINDOW_MS = 3000;
/** Share of one core the process may use in that window: a reading still running uses a core (or what a loaded machine leaves it). */
const IDLE_SHARE = 0.05;

/** Clock ticks per second of /proc/<pid>/stat's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** utime + stime of every live process whose parent is this one (/proc; fields after the command's closing paren). */
function childrenCpuMs(): number {
  let total = 0;
  for (const pid of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(f[1]) === process.pid) total += ((Number(f[11]) + Number(f[12])) * 1000) / TICKS_PER_SECOND;
    } catch {
      // the process ended while we looked
    }
  }
  return total;
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(['tesseract.js', 'paddle'] as const)('OCR (%s) stopped at the extraction deadline', (ocr) => {
  const engine: DocketExtractionEngine = createExtractionEngine({ ocr, ocrIsolate: true });
  afterAll(() => engine.close());
  const page = longPage();

  it('fails the job with extraction_timeout and releases the CPU: the reading does not go on', async () => {
    const deadline = AbortSignal.timeout(DEADLINE_MS);
    expect(
      await errorCodeOf(engine.extract({ bytes: page, mimeType: 'image/png', filename: 'page.png' }, SCHEMA, { signal: deadline })),
    ).toBe('extraction_timeout');
    // (The reader processes only: this process's own garbage collection and timers are no reading, and on a loaded
    // machine they alone can pass the bound.)
    const before = childrenCpuMs();
    await sleep(QUIET_WINDOW_MS);
    expect(childrenCpuMs() - before).toBeLessThan(QUIET_WINDOW_MS * IDLE_SHARE);
  });

  it('reads the next document in a fresh reader process', async () => {
    const small = new Uint8Array(textCanvas(['Order: QX-5521']).toBuffer('image/png'));
    const out = await engine.extract({ bytes: small, mimeType: 'image/png', filename: 'small.png' }, SCHEMA);
    expect(out.result).toEqual({ order: 'QX-5521' });
  });
});
