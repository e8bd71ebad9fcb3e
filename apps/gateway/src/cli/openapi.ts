// Prints the gateway's OpenAPI document (the one `/docs-json` serves) without a database, NATS or a port:
// the Nest module graph is built in preview mode (no provider is instantiated, nothing connects) and
// Swagger reads the controllers' metadata. `tools/sdk/generate.mjs` generates `@docket/sdk` from it.
//   node apps/gateway/dist/cli/openapi.js > openapi.json
import 'reflect-metadata';
import { buildGatewayOpenApiDocument } from '../http/openapi-document.js';

process.stdout.write(`${JSON.stringify(await buildGatewayOpenApiDocument(), null, 2)}\n`);
