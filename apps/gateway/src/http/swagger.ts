import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { API_VERSION } from '../system/version.js';

/** The OpenAPI document of every route of `app` (what `/docs-json` serves; the SDK is generated from it). */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Docket API')
    .setDescription(
      'Self-hostable document extraction. Upload PDFs, images and other files; get JSON shaped by a saved template or an inline schema, ' +
        'paid from a prepaid wallet, delivered by polling or signed webhooks.\n\n' +
        '**Flow:** `POST /extract` → `PUT` bytes to `upload_url` (Content-Type = `artifact_type`) → `POST /artifacts/{id}/confirm-upload` → poll `GET /job/{id}` or receive the webhook.\n\n' +
        '**Auth:** HTTP Basic with `api_key:secret`. `dk_test_` keys are sandbox (synthetic results, never charged), `dk_live_` keys are production.\n\n' +
        '**Errors:** `{ statusCode, error, code, message, details?, request_id }` with a stable `code`.',
    )
    .setVersion(API_VERSION)
    .addServer('/api/v1')
    .addBasicAuth({ type: 'http', scheme: 'basic', description: 'Username = API key (dk_test_… / dk_live_…), password = secret (sk_…)' })
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        description: 'Operator token (ADMIN_TOKEN of the gateway) for the admin routes only; never an API key',
      },
      'admin-token',
    )
    .addTag(
      'Admin (operator only)',
      'Operator routes for the dashboard’s admin mode: `Authorization: Bearer <ADMIN_TOKEN>`. 404 when the gateway has no ADMIN_TOKEN, 401 without a Bearer token, 403 with a wrong one. Not for API clients.',
    )
    .build();
  return SwaggerModule.createDocument(app, config, { ignoreGlobalPrefix: true });
}

/** Serves Swagger UI at `/docs` and the document at `/docs-json` (unless `serve` is false); returns the document. */
export function setupSwagger(app: INestApplication, serve = true): OpenAPIObject {
  const document = buildOpenApiDocument(app);
  if (serve) SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs-json', customSiteTitle: 'Docket API' });
  return document;
}
