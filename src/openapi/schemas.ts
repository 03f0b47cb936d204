import type { OpenAPIObject } from '@nestjs/swagger';
import { byKey, isJson, type Json } from './json.js';

const SCHEMA_REF = '#/components/schemas/';

/**
 * Completes `components.schemas`: the `Pets` list, named enums used by plain `$ref`,
 * and a stable (alphabetical) order.
 */
export function refineSchemas(document: OpenAPIObject): void {
  const components = (document.components ??= {});
  const schemas = (components.schemas ??= {}) as Record<string, Json>;
  schemas.Pets = { type: 'array', description: 'A list of pets', items: { $ref: `${SCHEMA_REF}Pet` } };
  useNamedEnumsByRef(document, schemas);
  components.schemas = Object.fromEntries(Object.entries(schemas).sort(byKey));
}

/**
 * @nestjs/swagger renders an `enumName` property as `{ allOf: [{ $ref }], description, … }`.
 * The contract wants the named enum itself (`status: { $ref: PetStatus }`), as a client
 * generator expects it; the enum schema carries the description.
 */
function useNamedEnumsByRef(document: OpenAPIObject, schemas: Record<string, Json>): void {
  const isNamedEnumRef = (value: unknown): value is { $ref: string } => {
    if (!isJson(value) || typeof value.$ref !== 'string' || !value.$ref.startsWith(SCHEMA_REF)) return false;
    const target = schemas[value.$ref.slice(SCHEMA_REF.length)];
    return isJson(target) && Array.isArray(target.enum);
  };
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (!isJson(node)) return node;
    const { allOf } = node;
    if (Array.isArray(allOf) && allOf.length === 1 && isNamedEnumRef(allOf[0])) return { $ref: allOf[0].$ref };
    for (const [key, value] of Object.entries(node)) node[key] = visit(value);
    return node;
  };
  visit(document.paths);
  for (const schema of Object.values(schemas)) visit(schema);
}
