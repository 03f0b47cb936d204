import type { OpenAPIObject } from '@nestjs/swagger';
import { isJson, operationsOf } from './json.js';

const SCHEMA_REF = '#/components/schemas/';

/**
 * Every request body is validated strictly (the global validation pipe: whitelist,
 * forbidNonWhitelisted, nested objects included), so its schema and the object
 * schemas inside it say `additionalProperties: false`: a validating proxy or a
 * contract test then refuses unknown fields as the service does.
 */
export function closeRequestBodies(document: OpenAPIObject): void {
  const schemas = (document.components?.schemas ?? {}) as Record<string, unknown>;
  const seen = new Set<unknown>();
  const close = (node: unknown): void => {
    if (!isJson(node) || seen.has(node)) return;
    seen.add(node);
    if (typeof node.$ref === 'string' && node.$ref.startsWith(SCHEMA_REF)) {
      close(schemas[node.$ref.slice(SCHEMA_REF.length)]);
      return;
    }
    for (const key of ['allOf', 'oneOf', 'anyOf'] as const) {
      const parts = node[key];
      if (Array.isArray(parts)) parts.forEach(close);
    }
    if (isJson(node.items)) close(node.items);
    if ((node.type === 'object' || isJson(node.properties)) && node.additionalProperties === undefined) {
      node.additionalProperties = false;
      for (const property of Object.values(isJson(node.properties) ? node.properties : {})) close(property);
    }
  };
  for (const { operation } of operationsOf(document.paths)) {
    const body = operation.requestBody;
    const content = isJson(body) && isJson(body.content) ? body.content : {};
    for (const media of Object.values(content)) if (isJson(media)) close(media.schema);
  }
}
