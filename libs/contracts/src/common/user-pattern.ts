import { RE2JS } from 're2js';
import { ValidateBy, type ValidationOptions } from 'class-validator';
import { DocketError } from '@docket/errors';
import { SizedLruCache } from './pattern-cache.js';

/**
 * Tenant validation patterns (`validation.regex`) run on RE2 semantics (linear time in the input, ADR 0008) — never
 * on the backtracking engine, where `^(a+)+$` on 30 characters takes seconds. The engine is `re2js`, RE2's pure
 * JavaScript port: compiled patterns live on the ordinary garbage-collected heap. (`re2-wasm` had a fixed 16 MiB heap
 * and never freed a compiled pattern; ~11,000 compilations, or one `\pL{1000}`, disabled it until restart — ADR 0007.)
 * RE2 has no backreferences or lookaround: such a pattern is refused when the template or schema is saved. JavaScript
 * escapes (`\uXXXX`, `\u{…}`, `\cA`) are translated to RE2 syntax first, as before.
 */

/** Estimated bytes of a compiled pattern before its instructions (matcher state, tables; measured ≈ 8 KiB). */
export const PATTERN_BASE_BYTES = 8 * 1024;
/** Estimated bytes per compiled instruction (measured 76–177 bytes with the base above; upper end kept). */
export const PATTERN_BYTES_PER_INSTRUCTION = 160;
/**
 * One account's share of the compiled patterns a process keeps (estimated bytes). A template or inline schema whose
 * distinct patterns need more is refused with 400 `patterns_too_large`: it could never stay compiled.
 */
export const MAX_ACCOUNT_PATTERN_BYTES = 8 * 1024 * 1024;
/** All compiled patterns a process keeps (estimated bytes): eight accounts' full shares. */
export const MAX_PROCESS_PATTERN_BYTES = 8 * MAX_ACCOUNT_PATTERN_BYTES;
/** The owner charged for patterns compiled while a body is validated (the account is not known there). */
export const SAVE_CHECK_OWNER = '';

/** A tenant pattern compiled once: the program, or why RE2 refuses it; and its estimated size. */
export interface CompiledPattern {
  re?: RE2JS;
  problem?: string;
  bytes: number;
}

const compiled = new SizedLruCache<CompiledPattern>({ maxBytes: MAX_PROCESS_PATTERN_BYTES, maxBytesPerOwner: MAX_ACCOUNT_PATTERN_BYTES });

function compile(source: string): CompiledPattern {
  try {
    const re = RE2JS.compile(RE2JS.translateRegExp(source));
    return { re, bytes: PATTERN_BASE_BYTES + re.programSize() * PATTERN_BYTES_PER_INSTRUCTION };
  } catch (e) {
    return { problem: e instanceof Error ? e.message : String(e), bytes: PATTERN_BASE_BYTES };
  }
}

/**
 * The compiled form of a tenant pattern, compiled once per (owner, pattern) and kept while it is among the recently
 * used within the owner's share and the process bound — so a template's patterns are compiled once per version,
 * not once per job, and one account's patterns never evict another's.
 */
export function compiledUserPattern(source: string, owner = SAVE_CHECK_OWNER): CompiledPattern {
  return compiled.getOrCreate(owner, source, () => {
    const c = compile(source);
    return { value: c, bytes: c.bytes };
  });
}

/** Why RE2 refuses the pattern, or undefined when it compiles. */
export function userPatternProblem(pattern: string): string | undefined {
  return compiledUserPattern(pattern).problem;
}

/** Estimated bytes held by compiled patterns, in this process or by one owner (for tests and metrics). */
export function compiledPatternBytes(owner?: string): number {
  return compiled.bytes(owner);
}

/** The `validation.regex` of every field and table column, walked without trusting the shape (bodies arrive unvalidated). */
function patternsOf(fields: unknown, out = new Set<string>()): Set<string> {
  if (!Array.isArray(fields)) return out;
  for (const f of fields as unknown[]) {
    if (!f || typeof f !== 'object') continue;
    const { validation, fields: columns } = f as { validation?: { regex?: unknown }; fields?: unknown };
    if (validation && typeof validation === 'object' && typeof validation.regex === 'string') out.add(validation.regex);
    patternsOf(columns, out);
  }
  return out;
}

/** Estimated bytes the distinct patterns of a schema's fields need compiled (patterns RE2 refuses count nothing). */
export function schemaPatternBytes(fields: unknown): number {
  let total = 0;
  for (const p of patternsOf(fields)) {
    const c = compiledUserPattern(p);
    if (!c.problem) total += c.bytes;
  }
  return total;
}

function tooLargeMessage(bytes: number): string {
  return `The validation patterns of these fields need about ${Math.ceil(bytes / 1024)} KiB compiled, more than an account's share of ${MAX_ACCOUNT_PATTERN_BYTES / 1024} KiB: use fewer or simpler patterns (shorter alternations, smaller repetition counts)`;
}

/** A schema whose patterns exceed one account's share is a 400 `patterns_too_large` (e.g. after a schema patch). */
export function assertPatternsWithinShare(fields: unknown): void {
  const bytes = schemaPatternBytes(fields);
  if (bytes > MAX_ACCOUNT_PATTERN_BYTES) {
    throw new DocketError('patterns_too_large', tooLargeMessage(bytes), { estimated_bytes: bytes, max_bytes: MAX_ACCOUNT_PATTERN_BYTES });
  }
}

/** class-validator rule: the string compiles as an RE2 pattern (400 `invalid_regex` otherwise). */
export function IsRe2Pattern(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isRe2Pattern',
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || userPatternProblem(value) === undefined,
        defaultMessage: (args) =>
          `${args?.property ?? 'regex'} is not supported: patterns run on RE2 (no backreferences or lookaround) — ${userPatternProblem(String(args?.value))}`,
      },
    },
    options,
  );
}

/** class-validator rule on a schema's `fields`: its patterns fit one account's share (400 `patterns_too_large` otherwise). */
export function PatternsWithinShare(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'patternsWithinShare',
      validator: {
        validate: (value: unknown) => schemaPatternBytes(value) <= MAX_ACCOUNT_PATTERN_BYTES,
        defaultMessage: (args) => tooLargeMessage(schemaPatternBytes(args?.value)),
      },
    },
    options,
  );
}
