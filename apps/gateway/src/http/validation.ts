import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { DocketError } from '@docket/errors';
import { flattenValidationErrors } from '@docket/messaging';

/**
 * Spec §7 splits validation failures: 400 for a missing field or an invalid data_type,
 * 422 for a body/query/path that does not fit the schema (wrong types, bad formats).
 * Rule: 400 when every failure is "missing" or a coded 400 constraint; otherwise 422.
 */
export function httpValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    transform: true,
    exceptionFactory: (errors: ValidationError[]) => validationError(errors),
  });
}

export function validationError(errors: ValidationError[]): DocketError {
  const details = flattenValidationErrors(errors);
  const coded = collectCodes(errors);
  const onlyMissingOr400 = details.every((d) => Object.keys(d.constraints).every((c) => c === 'isDefined' || coded.has(`${d.field}:${c}`)));
  if (onlyMissingOr400) {
    const codes = new Set([...coded.values()]);
    const code = codes.size === 1 ? [...codes][0] : 'validation_failed';
    return new DocketError(code as 'validation_failed', summary(details), details);
  }
  return new DocketError('invalid_body', summary(details), details);
}

function collectCodes(errors: ValidationError[], parent = '', out = new Map<string, string>()): Map<string, string> {
  for (const e of errors) {
    const field = parent ? `${parent}.${e.property}` : e.property;
    for (const [constraint, ctx] of Object.entries(e.contexts ?? {})) {
      const code = (ctx as { code?: string }).code;
      if (code) out.set(`${field}:${constraint}`, code);
    }
    if (e.children?.length) collectCodes(e.children, field, out);
  }
  return out;
}

function summary(details: { field: string; constraints: Record<string, string> }[]): string {
  const first = details[0];
  if (!first) return 'Request failed validation';
  const more = details.length > 1 ? ` (and ${details.length - 1} more)` : '';
  return `${Object.values(first.constraints)[0] ?? `${first.field} is invalid`}${more}`;
}
