import { describe, expect, it } from '@jest/globals';
import { keySafeFilename, rawKey } from './job-run.message.js';

describe('rawKey', () => {
  it('keeps plain ASCII filenames as they are', () => {
    expect(rawKey('acct_1', 'art_1', 'invoice 2024 (copy).pdf')).toBe('raw/acct_1/art_1/invoice 2024 (copy).pdf');
  });

  it('replaces names a file-backed store cannot hold by file.<ext>', () => {
    expect(keySafeFilename('\u{1D54C}'.repeat(255) + '.png')).toBe('file.png');
    expect(keySafeFilename('100%.pdf')).toBe('file.pdf');
    expect(keySafeFilename('..')).toBe('file');
    expect(keySafeFilename('a'.repeat(101))).toBe('file');
  });
});
