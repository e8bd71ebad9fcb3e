import { ValidationPipe, type ArgumentMetadata, type ValidationError } from '@nestjs/common';
import { DocketError } from '@docket/errors';
import { classifyValidationErrors } from '@docket/messaging';

/**
 * HTTP bodies, queries and params: the same 400/422 rule as NATS payloads. Shape failures are
 * `invalid_body` for bodies and `invalid_query` for query strings and path parameters.
 */
class HttpValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
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

export function httpValidationPipe(): ValidationPipe {
  return new HttpValidationPipe({
    whitelist: true,
    transform: true,
    exceptionFactory: (errors: ValidationError[]) => classifyValidationErrors(errors, 'invalid_body'),
  });
}
