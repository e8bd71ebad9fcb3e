import { ValidateIf, type ValidationOptions } from 'class-validator';

/**
 * Optional but not nullable (docs/adr, input limits): an absent field is skipped; `null` is validated like any
 * value, so it fails the field's type rule (422). For fields where null would mean nothing, e.g. PATCH
 * `events: null` ("unchanged" is expressed by leaving the field out). `@IsOptional()` lets null through.
 */
export function IsOptionalNotNull(options?: ValidationOptions): PropertyDecorator {
  return ValidateIf((_object, value) => value !== undefined, options);
}
