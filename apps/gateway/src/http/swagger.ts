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
    .build();
  return SwaggerModule.createDocument(app, config, { ignoreGlobalPrefix: true });
}

/** Serves Swagger UI at `/docs` and the document at `/docs-json`; returns the document. */
export function setupSwagger(app: INestApplication): OpenAPIObject {
  const document = buildOpenApiDocument(app);
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs-json', customSiteTitle: 'Docket API' });
  return document;
}
