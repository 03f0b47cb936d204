import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { API_KEY_HEADER, API_KEY_SECURITY } from '@petstore/auth';
import { ErrorBody } from '@petstore/errors';
import type { AppConfig } from '../config/app.config.js';
import { InventoryItemResponse, SetInventoryDto } from '../inventory/index.js';
import { OrderResponse } from '../orders/index.js';
import { EVENT_UNION_SCHEMAS } from '../webhooks/index.js';
import { typeErrorCodes } from './error-codes.js';
import { refineOperations } from './operations.js';
import { closeRequestBodies } from './request-bodies.js';
import { refineSchemas } from './schemas.js';
import { addSharedResponses } from './shared-responses.js';

const DESCRIPTION = `Pets, categories, orders and inventory of a pet store over JSON/HTTP.

Send your API key in the \`${API_KEY_HEADER}\` header. Every failure answers with the \`Error\` schema;
each error response lists the codes it can carry, one example each, and \`x-error-codes\` is the catalogue of all codes.
Lists are ordered by id and paged with \`limit\` and an opaque \`cursor\`; follow the \`Link: rel="next"\` header.
Every response carries \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\`.

Operations marked \`x-stability\` (\`experimental\` or \`beta\`) may still change; the others are stable.
Deprecated operations carry \`x-sunset\`, the date from which they answer 410.`;

/** Conventional key order, so the committed YAML reads top-down. */
const TOP_LEVEL_ORDER = ['openapi', 'info', 'servers', 'tags', 'paths', 'components'];

/**
 * The OpenAPI 3.0.3 document, generated from the controllers and completed with what
 * they share. The service serves it at /openapi.json and /openapi.yaml, and
 * `npm run openapi` writes the same document to `openapi.yaml`.
 */
export function buildOpenApiDocument(app: INestApplication, config: AppConfig): OpenAPIObject {
  const base = new DocumentBuilder()
    .setOpenAPIVersion('3.0.3')
    .setTitle('Petstore API')
    .setDescription(DESCRIPTION)
    .setVersion('1.0.0')
    .setContact('Petstore API team', '', 'api@petstore.invalid')
    .setLicense('Proprietary', 'https://petstore.invalid/license')
    // Relative: the document describes whichever host serves it.
    .addServer('/', 'The server that serves this document')
    .addTag('Pets', 'Pets and the categories that group them')
    .addTag('Store', 'Orders, inventory, and API-key administration')
    .addApiKey(
      { type: 'apiKey', in: 'header', name: API_KEY_HEADER, description: 'API key (`psk_…`)' },
      API_KEY_SECURITY,
    )
    .build();
  if (base.info.contact && !base.info.contact.url) delete base.info.contact.url;

  // Named unions (`Event`…) have no class for the scanner to render: they go in as written.
  base.components = { ...base.components, schemas: { ...EVENT_UNION_SCHEMAS } };
  const document = SwaggerModule.createDocument(app, base, {
    extraModels: [ErrorBody, OrderResponse, InventoryItemResponse, SetInventoryDto],
    // Fallback only: every operation should set its own `operationId` (e.g. `listPets`).
    operationIdFactory: (controller, method) => method + controller.replace(/Controller$/, ''),
  });
  refineSchemas(document);
  refineOperations(document, { getPetByIdSunset: config.petsGetByIdSunset });
  addSharedResponses(document);
  typeErrorCodes(document);
  closeRequestBodies(document);
  return normalize(document);
}

/** Drops `undefined` members (so JSON and YAML agree) and orders the top-level keys. */
function normalize(document: OpenAPIObject): OpenAPIObject {
  const plain = JSON.parse(JSON.stringify(document)) as Record<string, unknown>;
  const ordered: Record<string, unknown> = {};
  for (const key of TOP_LEVEL_ORDER) if (key in plain) ordered[key] = plain[key];
  for (const [key, value] of Object.entries(plain)) if (!(key in ordered)) ordered[key] = value;
  return ordered as unknown as OpenAPIObject;
}
