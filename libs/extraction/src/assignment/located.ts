import type { Word } from '../layout/layout.types.js';
import { box, type Located } from '../locate/field.locator.js';

/** A value found on the page outside the label candidates, boxed by the words it was read from. */
export function locatedAt(ws: readonly Word[], page: number, value: unknown, confidence: number): Located {
  return { value, confidence, page, bbox: box(ws), slot: '' };
}

/** Confidences and boxes are reported to three decimals. */
export function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}
