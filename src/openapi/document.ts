import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { API_KEY_HEADER, API_KEY_SECURITY } from '@petstore/auth';
import { ErrorBody } from '@petstore/errors';
import type { AppConfig } from '../config/app.config.js';
import { InventoryItemDto, InventoryUpdateDto } from '../inventory/http/dto/inventory-item.dto.js';
import { OrderDto } from '../orders/http/dto/order.dto.js';
import { addSharedResponses } from './shared-responses.js';

const DESCRIPTION = `Pets, categories, orders and inventory of a pet store over JSON/HTTP.

Send your API key in the \`${API_KEY_HEADER}\` header. Every failure answers with the \`Error\` schema.
Lists are ordered by id and paged with \`limit\` and an opaque \`cursor\`; follow the \`Link: rel="next"\` header.
Every response carries \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\`.`;

/** The OpenAPI 3.0.3 document, generated from the controllers and completed with what they share. */
export function buildOpenApiDocument(app: INestApplication, config: AppConfig): OpenAPIObject {
  const base = new DocumentBuilder()
    .setOpenAPIVersion('3.0.3')
    .setTitle('Petstore API')
    .setDescription(DESCRIPTION)
    .setVersion('1.0.0')
    .setContact('Petstore API team', '', 'api@petstore.invalid')
    .setLicense('Proprietary', 'https://petstore.invalid/license')
    .addServer(`http://localhost:${config.port}`, 'Local development server')
    .addTag('Pets', 'Pets and the categories that group them')
    .addTag('Store', 'Orders, inventory, and API-key administration')
    .addApiKey(
      { type: 'apiKey', in: 'header', name: API_KEY_HEADER, description: 'API key (`psk_…`)' },
      API_KEY_SECURITY,
    )
    .build();
  const document = SwaggerModule.createDocument(app, base, {
    extraModels: [ErrorBody, OrderDto, InventoryItemDto, InventoryUpdateDto],
    operationIdFactory: (_controller, method) => method,
  });
  const schemas = ((document.components ??= {}).schemas ??= {});
  schemas.Pets = { type: 'array', description: 'A list of pets', items: { $ref: '#/components/schemas/Pet' } };
  const getPetById = document.paths['/pets/{petId}']?.get;
  if (getPetById) Object.assign(getPetById, { 'x-sunset': config.petsGetByIdSunset.toISOString() });
  addSharedResponses(document);
  return document;
}
