import { RE2 } from 're2-wasm';
import { ValidateBy, type ValidationOptions } from 'class-validator';

/**
 * Tenant validation patterns (`validation.regex`) run on RE2 (linear time in the input, ADR 0008) — never on
 * the backtracking engine, where `^(a+)+$` on 30 characters takes seconds. RE2 has no backreferences or
 * lookaround; such a pattern is refused when the template or schema is saved, with RE2's reason.
 * RE2 always works in Unicode mode (flag `u`).
 */
export function userPatternProblem(pattern: string): string | undefined {
  try {
    new RE2(pattern, 'u');
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
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
