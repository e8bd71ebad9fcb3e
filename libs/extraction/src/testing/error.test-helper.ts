import { expect } from '@jest/globals';
import { ExtractionError } from '../engine.types.js';

/** The code of the ExtractionError a promise rejects with, or 'resolved' (anything else fails the test). */
export async function errorCodeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'resolved';
  } catch (e) {
    expect(e).toBeInstanceOf(ExtractionError);
    return (e as ExtractionError).code;
  }
}
