import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { MAX_JSON_DEPTH } from '@docket/contracts';
import { DocketError } from '@docket/errors';
import type { RawServerDefault } from 'fastify';

/** Largest JSON request body (bytes). Bodies are descriptors and schemas, never file bytes. */
export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;

/** A body of at most this many bytes that is only whitespace counts as empty. */
const BLANK_BODY_MAX_BYTES = 64;

/** Nesting depth of a parsed JSON value, walked without recursion (a hostile body cannot blow the stack). */
export function jsonDepth(value: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    max = Math.max(max, depth);
    if (max > MAX_JSON_DEPTH) return max;
    for (const child of Object.values(v as Record<string, unknown>)) stack.push([child, depth + 1]);
  }
  return max;
}

/** True for a JSON object (the only shape a request body of this API has). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What a parsed JSON value is, in JSON's words (`array`, `string`, `number`, `boolean`, `null`, `object`). */
function jsonKind(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'array' : typeof value;
}

/**
 * The JSON body parser of every route (ADR input limits):
 * - an empty (or blank) body with `Content-Type: application/json` is no body at all, as many HTTP clients
 *   send that header on body-less POSTs (`confirm-upload`, `rerun`, `cancel`, …); a route that needs a body
 *   then answers 400 for its missing fields;
 * - otherwise Fastify's own parser (prototype-poisoning protection kept); malformed JSON is 422 `invalid_body`;
 * - a body nested deeper than `MAX_JSON_DEPTH` is 422 `invalid_body` before any validation walks it;
 * - a body that is not a JSON object (an array, a string, a number, a boolean, `null`) is 422 `invalid_body`: every
 *   request body of the API is an object, so anything else failed its schema (spec §7).
 */
export function useJsonBodyParser(app: NestFastifyApplication): void {
  const fastify = app.getHttpAdapter().getInstance();
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  app.useBodyParser<RawServerDefault>('application/json', { bodyLimit: JSON_BODY_LIMIT_BYTES }, (req, body, done) => {
    if (body.length === 0 || (body.length <= BLANK_BODY_MAX_BYTES && body.toString('utf8').trim() === '')) {
      done(null, undefined);
      return;
    }
    parseJson(req, body.toString('utf8'), (err, parsed) => {
      if (err) return done(err, undefined);
      if (!isJsonObject(parsed)) {
        return done(new DocketError('invalid_body', 'The JSON body must be an object', { received: jsonKind(parsed) }), undefined);
      }
      if (jsonDepth(parsed) > MAX_JSON_DEPTH) {
        return done(
          new DocketError('invalid_body', `The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels`, { max_depth: MAX_JSON_DEPTH }),
          undefined,
        );
      }
      done(null, parsed);
    });
  });
}
