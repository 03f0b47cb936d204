import { applyDecorators } from '@nestjs/common';
import { ApiExtension, ApiResponse } from '@nestjs/swagger';
import { ErrorBody } from '@petstore/errors';

/**
 * Documents the operation-specific failures (each with the Error schema). The
 * statuses every operation shares (400, 401, 403, 413, 415, 429, 500, 503) are
 * added to the document centrally, see `openapi/document.ts`.
 */
export const ApiErrors = (
  ...responses: ReadonlyArray<readonly [status: number, description: string]>
): MethodDecorator =>
  applyDecorators(...responses.map(([status, description]) => ApiResponse({ status, description, type: ErrorBody })));

/** Marks an operation that is not yet stable (`x-stability`). */
export const Stability = (level: 'experimental' | 'beta'): MethodDecorator => ApiExtension('x-stability', level);
