import type { ValueTransformer } from 'typeorm';

/**
 * pg returns bigint as a string. Micro-credit amounts stay far below 2^53 (9e9 credits), so they
 * are safe as JS numbers; anything outside that range is a bug and fails loudly.
 */
export const safeBigint: ValueTransformer = {
  to: (v: number | null | undefined) => v,
  from: (v: string | null) => {
    if (v === null || v === undefined) return v;
    const n = Number(v);
    if (!Number.isSafeInteger(n)) throw new Error(`micro-credit value out of range: ${v}`);
    return n;
  },
};
