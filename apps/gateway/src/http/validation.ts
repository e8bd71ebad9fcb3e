import { ValidationPipe, type ArgumentMetadata, type ValidationError } from '@nestjs/common';
import { DocketError } from '@docket/errors';
import { classifyValidationErrors } from '@docket/messaging';

/**
 * HTTP bodies, queries and params: the same 400/422 rule as NATS payloads. Shape failures are
 * `invalid_body` for bodies and `invalid_query` for query strings and path parameters.
 */
class HttpValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (hasNulCharacter(value)) {
      // Postgres text and jsonb cannot hold U+0000: refused here, before it reaches any service.
      const code = metadata.type === 'body' ? 'invalid_body' : 'invalid_query';
      throw new DocketError(code, 'Strings must not contain the NUL character (U+0000)', { location: metadata.type });
    }
    try {
      return await super.transform(value, metadata);
    } catch (err) {
      if (err instanceof DocketError && err.code === 'invalid_body' && metadata.type !== 'body') {
        throw new DocketError('invalid_query', err.message, err.details);
      }
      throw err;
    }
  }
}

/** True when any string (value or key) inside `value` contains U+0000; walked without recursion. */
export function hasNulCharacter(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return true;
    } else if (v && typeof v === 'object') {
      for (const [k, child] of Object.entries(v as Record<string, unknown>)) {
        if (k.includes('\u0000')) return true;
        stack.push(child);
      }
    }
  }
  return false;
}

export function httpValidationPipe(): ValidationPipe {
  return new HttpValidationPipe({
    whitelist: true,
    transform: true,
    exceptionFactory: (errors: ValidationError[]) => classifyValidationErrors(errors, 'invalid_body'),
  });
}
