import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { stringify } from 'yaml';
import { AppModule } from '../app.module.js';
import { loadAppConfig } from '../config/app.config.js';
import { buildOpenApiDocument } from '../openapi/document.js';

/**
 * `npm run openapi [file]`: writes the OpenAPI document (YAML) from the code, with
 * the default configuration, without connecting to any database (preview mode).
 */
const target = process.argv[2] ?? 'openapi.yaml';
const app = await NestFactory.create<NestExpressApplication>(AppModule.register(), {
  preview: true,
  logger: false,
  bodyParser: false,
});
const document = buildOpenApiDocument(app, loadAppConfig({}));
writeFileSync(target, stringify(document, { aliasDuplicateObjects: false, version: '1.1' }));
await app.close();
console.log(`Wrote ${target}`);
