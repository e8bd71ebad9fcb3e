import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { classifyValidationErrors } from '@docket/messaging';

/** HTTP bodies, queries and params: the same 400/422 rule as NATS payloads, with the HTTP shape code. */
export function httpValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    transform: true,
    exceptionFactory: (errors: ValidationError[]) => classifyValidationErrors(errors, 'invalid_body'),
  });
}
