import 'reflect-metadata';
import { type Dirent, readdirSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type INestApplication, type Provider, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';
import { DefaultNamingStrategy, getMetadataArgsStorage, type MigrationInterface, type QueryRunner } from 'typeorm';
import { AppModule } from '../../src/app.module.js';
import { loadAppConfig } from '../../src/config/app.config.js';
import { buildOpenApiDocument } from '../../src/openapi/document.js';

/**
 * The worked examples under test/extension/ are registered next to the real modules
 * in the same database and document, so each name they put where a real module's
 * goes carries an `example` prefix: a team's own `reviews` module must never meet
 * `pet_reviews`, `ReviewOrmEntity` or `POST /pets/{petId}/reviews` of an example.
 * Every folder here is held to it, a future one included; nothing here needs a database.
 */
const HERE = new URL('./', import.meta.url);
const examples = readdirSync(HERE, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** `example_…` for a table; `PK_example_…`, `IDX_example_…` and the like for its indexes and constraints. */
const TABLE = /^example_/;
const TABLE_OBJECT = /^([A-Z]+_)?example_/;
const CLASS = /^Example[A-Z]/;

let core: Promise<OpenAPIObject> | undefined;
/** The real app's document, built once. */
const coreDocument = () => (core ??= documentOf([]));

describe('the worked extension examples', () => {
  it('are found', () => {
    expect(examples.length).toBeGreaterThanOrEqual(2);
  });

  it.each(examples)('%s: its folder says it is an example', (folder) => {
    expect(folder).toMatch(/^example-[a-z0-9-]+$/);
  });

  describe.each(examples)('%s', (folder) => {
    let entry: Record<string, unknown>;
    /** The example's entity classes (a TypeORM target is a class, or a name for schema-only entities). */
    let entities: Target[];

    beforeAll(async () => {
      // The core's entities are loaded with AppModule above: what this import adds is the example's.
      const before = new Set(getMetadataArgsStorage().tables.map((table) => table.target));
      entry = (await import(`./${folder}/index.js`)) as Record<string, unknown>;
      entities = getMetadataArgsStorage()
        .tables.map((table) => table.target)
        .filter((target) => !before.has(target));
    });

    it('names its entities, their tables, indexes and constraints with the prefix', () => {
      const naming = new DefaultNamingStrategy();
      const storage = getMetadataArgsStorage();
      const mine = <T extends { target: Target }>(args: readonly T[]) =>
        args.filter((arg) => entities.includes(arg.target));

      const tables = mine(storage.tables).map((table) => naming.tableName(nameOf(table.target), table.name));
      const objects = [
        ...mine(storage.indices).map((index) => index.name),
        ...mine(storage.uniques).map((unique) => unique.name),
        ...mine(storage.checks).map((check) => check.name),
        ...mine(storage.exclusions).map((exclusion) => exclusion.name),
        ...mine(storage.foreignKeys).map((foreignKey) => foreignKey.name),
        ...mine(storage.joinColumns).map((joinColumn) => joinColumn.foreignKeyConstraintName),
        ...mine(storage.columns).map((column) => column.options.primaryKeyConstraintName),
        ...mine(storage.joinTables).flatMap((joinTable) => [
          joinTable.name,
          ...[...(joinTable.joinColumns ?? []), ...(joinTable.inverseJoinColumns ?? [])].map(
            (joinColumn) => joinColumn.foreignKeyConstraintName,
          ),
        ]),
      ].filter((name): name is string => name !== undefined);

      expect(entities.map(nameOf).filter((name) => !CLASS.test(name))).toEqual([]);
      expect(tables.filter((name) => !TABLE.test(name))).toEqual([]);
      expect(objects.filter((name) => !TABLE_OBJECT.test(name))).toEqual([]);
    });

    it('names its migrations with the prefix and a past timestamp, and creates only prefixed objects', async () => {
      const migrations = await migrationsIn(new URL(`${folder}/`, HERE));
      // Tables come only from migrations (synchronize is off): entities and migrations go together.
      expect(migrations.length > 0).toBe(entities.length > 0);
      for (const { file, migration } of migrations) {
        const className = migration.constructor.name;
        expect(className).toMatch(/^Example[A-Za-z0-9]*\d{13}$/);
        expect(migration.name ?? className).toBe(className);
        const timestamp = className.slice(-13);
        expect(file.startsWith(`${timestamp}-`)).toBe(true);
        // TypeORM orders migrations by this timestamp: a future one sorts after those a team writes today.
        expect(Number(timestamp)).toBeLessThan(Date.now());

        const created = createdBy(await statementsOf(migration));
        expect(created.tables.length + created.objects.length).toBeGreaterThan(0);
        expect(created.tables.filter((name) => !TABLE.test(name))).toEqual([]);
        expect(created.objects.filter((name) => !TABLE_OBJECT.test(name))).toEqual([]);
      }
    });

    it('names its Nest modules, controllers and providers with the prefix', () => {
      const modules = Object.values(entry).filter(isNestModule);
      expect(modules.length).toBeGreaterThan(0);
      const names = modules.flatMap((module) => [
        module.name,
        ...metadata<Type[]>('controllers', module).map((controller) => controller.name),
        // A class or Symbol token is unique by identity; a class provider is named by its class, a token by its string.
        ...metadata<Provider[]>('providers', module).flatMap((provider) =>
          typeof provider === 'function'
            ? [provider.name]
            : typeof provider.provide === 'string'
              ? [provider.provide]
              : [],
        ),
      ]);
      expect(names.filter((name) => !/^(Example[A-Z]|EXAMPLE_)/.test(name))).toEqual([]);
    });

    it('adds to the OpenAPI document only prefixed paths, tags, operationIds, schemas and error codes', async () => {
      const modules = Object.values(entry).filter(isNestModule);
      const [core, extended] = [await coreDocument(), await documentOf(modules)];
      const added = <T>(of: (document: OpenAPIObject) => Record<string, T> | undefined) =>
        Object.keys(of(extended) ?? {}).filter((key) => !(key in (of(core) ?? {})));

      const paths = added((document) => document.paths);
      expect(paths.length).toBeGreaterThan(0);
      expect(paths.filter((path) => !path.startsWith('/examples/'))).toEqual([]);
      for (const path of Object.keys(core.paths)) expect(extended.paths[path]).toEqual(core.paths[path]);

      const operations = paths.flatMap((path) => Object.values(extended.paths[path] ?? {})) as Array<{
        operationId?: string;
        tags?: string[];
      }>;
      expect(
        operations.map((operation) => operation.operationId).filter((id) => !/Example[A-Z]/.test(id ?? '')),
      ).toEqual([]);
      expect(operations.flatMap((operation) => operation.tags ?? []).filter((tag) => !/^Example\b/.test(tag))).toEqual(
        [],
      );
      expect(added((document) => document.components?.schemas).filter((name) => !CLASS.test(name))).toEqual([]);
      const codes = added((document) => (document as { 'x-error-codes'?: Record<string, unknown> })['x-error-codes']);
      expect(codes.filter((code) => !code.startsWith('EXAMPLE_'))).toEqual([]);
    });
  });
});

type Target = ReturnType<typeof getMetadataArgsStorage>['tables'][number]['target'];

const nameOf = (target: Target): string => (typeof target === 'string' ? target : target.name);

function metadata<T extends unknown[]>(key: string, target: object): T {
  return (Reflect.getMetadata(key, target) as T | undefined) ?? ([] as unknown as T);
}

function isNestModule(value: unknown): value is Type {
  return (
    typeof value === 'function' &&
    ['imports', 'controllers', 'providers', 'exports'].some((key) => Reflect.hasOwnMetadata(key, value))
  );
}

/** Every migration class in the example's `migrations/` folders, with its file name. */
async function migrationsIn(folder: URL): Promise<Array<{ file: string; migration: MigrationInterface }>> {
  const files = readdirSync(folder, { withFileTypes: true, recursive: true }).filter(
    (file: Dirent) => file.isFile() && file.name.endsWith('.ts') && /(^|\/)migrations$/.test(file.parentPath),
  );
  const found = [];
  for (const file of files) {
    const path = relative(fileURLToPath(HERE), `${file.parentPath}/${file.name.replace(/\.ts$/, '.js')}`);
    const exports = (await import(`./${path}`)) as Record<string, unknown>;
    for (const value of Object.values(exports)) {
      if (typeof value === 'function' && typeof value.prototype?.up === 'function') {
        found.push({ file: file.name, migration: new (value as new () => MigrationInterface)() });
      }
    }
  }
  return found;
}

/** The SQL a migration's `up` sends, to a query runner that only records it. */
async function statementsOf(migration: MigrationInterface): Promise<string[]> {
  const statements: string[] = [];
  const recorder = new Proxy(
    {},
    {
      get(_target, property) {
        if (property === 'query') return async (sql: string) => void statements.push(sql);
        throw new Error(
          `an example's migration writes SQL with db.query(), which this check reads; not db.${String(property)}`,
        );
      },
    },
  );
  await migration.up(recorder as QueryRunner);
  return statements;
}

/** The tables a migration creates or alters, and the other objects (indexes, constraints, functions…) it creates. */
function createdBy(statements: readonly string[]): { tables: string[]; objects: string[] } {
  const name = String.raw`(?:IF NOT EXISTS\s+)?"?([A-Za-z_][\w$]*)"?`;
  const all = (pattern: string) =>
    statements.flatMap((sql) => [...sql.matchAll(new RegExp(pattern, 'gi'))].map((match) => match[1]));
  return {
    tables: all(String.raw`\b(?:CREATE|ALTER)\s+(?:UNLOGGED\s+)?TABLE\s+(?:ONLY\s+)?${name}`),
    objects: [
      ...all(String.raw`\bCONSTRAINT\s+${name}`),
      ...all(String.raw`\bCREATE\s+(?:UNIQUE\s+)?INDEX\s+(?:CONCURRENTLY\s+)?${name}`),
      ...all(
        String.raw`\bCREATE\s+(?:OR\s+REPLACE\s+)?(?:MATERIALIZED\s+VIEW|VIEW|FUNCTION|PROCEDURE|TRIGGER|TYPE|SEQUENCE)\s+${name}`,
      ),
    ],
  };
}

/** The served document of the real app with `modules` registered, built as `npm run openapi` does (no database). */
async function documentOf(modules: Type[]): Promise<OpenAPIObject> {
  const app: INestApplication = await NestFactory.create(AppModule.register({ modules }), {
    preview: true,
    abortOnError: false,
    logger: false,
    bodyParser: false,
  });
  try {
    return buildOpenApiDocument(app, loadAppConfig({}));
  } finally {
    await app.close();
  }
}
