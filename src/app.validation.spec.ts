import { type DynamicModule, type ForwardReference, type Type, ValidationPipe } from '@nestjs/common';
import { MODULE_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum.js';
import fc from 'fast-check';
import { dtoInputs, type InputForm, propertyRules } from '../test/support/dto-inputs.js';
import { AppModule } from './app.module.js';
import { compileFastValidation, type DtoClass, type FastValidation } from './shared/http/fast-validation.js';
import { createValidationPipe } from './shared/http/validation.pipe.js';

/**
 * Every DTO class the service validates (the types of its controllers' @Body and
 * @Query parameters, found below), by name. A new one fails the first test until
 * it is listed here, with plainly valid inputs for the fast path, or as a class
 * that stays on the full path.
 */
const VALID_INPUTS: Record<InputForm, Record<string, readonly Record<string, unknown>[]>> = {
  query: {
    ListPetsQuery: [
      { id: '500000' },
      {},
      { id: ['3', '1', '2'] },
      { status: ['available', 'pending'], categoryId: '3', limit: '20', cursor: 'MTA' },
    ],
    PageQuery: [{}, { limit: '100', cursor: 'MTA' }],
    ListOrdersQuery: [{}, { petId: '7', complete: 'false' }],
    ListInventoryQuery: [{}, { status: 'sold' }],
    ListEventsQuery: [{}, { after: '0', type: ['order.placed', 'inventory.changed'] }],
    KeyUsageQuery: [{}, { from: '2026-11-01', to: '2026-11-23' }],
  },
  body: {
    NewPetDto: [
      { name: 'Rex', categoryId: 1 },
      { name: 'Rex', categoryId: 1, status: 'sold' },
    ],
    PetPatchDto: [{}, { name: 'Max' }, { status: 'sold', categoryId: 2 }],
    NewCategoryDto: [{ name: 'Dogs' }, { name: 'Dogs', description: 'Loyal companions' }],
    PlaceOrderDto: [
      { petId: 1, quantity: 2 },
      { petId: 1, quantity: 1000, shipDate: '2026-11-21T10:00:00.000Z' },
    ],
    CompleteOrderDto: [{ complete: true }, { complete: true, shipDate: '2026-11-21T10:00:00Z' }],
    SetInventoryDto: [{ quantity: 0 }, { quantity: 12 }],
    NewWebhookDto: [
      { url: 'https://shop.example.com/hooks/petstore', events: ['order.placed'] },
      { url: 'https://x.example', events: ['order.placed', 'inventory.changed'], description: 'Warehouse sync' },
    ],
    WebhookUpdateDto: [{}, { enabled: true }, { events: ['pet.status_changed'], description: '' }],
  },
};

/** Validated DTOs without a fast path, and why. */
const FULL_PATH_ONLY: Record<string, string> = {
  NewApiKeyDto: 'limits is a nested KeyLimits object (@ValidateNested, @Type)',
  ApiKeyUpdateDto: 'limits is a nested KeyLimits object (@ValidateNested, @Type)',
};

type ModuleEntry = Type | DynamicModule | Promise<DynamicModule> | ForwardReference;

/** The controllers of a module and of every module it imports, static or dynamic. */
async function controllersOf(entry: ModuleEntry, seen = new Set<unknown>()): Promise<Type[]> {
  const resolved = await entry;
  const module = 'forwardRef' in resolved ? (resolved.forwardRef() as Type | DynamicModule) : resolved;
  if (seen.has(module)) return [];
  seen.add(module);
  const [moduleClass, dynamic]: [Type, Partial<DynamicModule>] =
    typeof module === 'function' ? [module, {}] : [module.module, module];
  const controllers: Type[] = [
    ...((Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, moduleClass) as Type[] | undefined) ?? []),
    ...(dynamic.controllers ?? []),
  ];
  const imports: ModuleEntry[] = [
    ...((Reflect.getMetadata(MODULE_METADATA.IMPORTS, moduleClass) as ModuleEntry[] | undefined) ?? []),
    ...(dynamic.imports ?? []),
  ];
  for (const imported of imports) controllers.push(...(await controllersOf(imported, seen)));
  return controllers;
}

interface ValidatedParameter {
  readonly form: InputForm;
  readonly metatype: DtoClass;
}

const UNVALIDATED_TYPES: unknown[] = [String, Number, Boolean, Array, Object, undefined];

/** The @Body and @Query parameters of a controller whose type the global pipe validates. */
function validatedParameters(controller: Type): ValidatedParameter[] {
  const prototype = controller.prototype as object;
  return Object.getOwnPropertyNames(prototype).flatMap((method) => {
    const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, method) ?? {}) as Record<
      string,
      { index: number }
    >;
    const types = (Reflect.getMetadata('design:paramtypes', prototype, method) ?? []) as unknown[];
    return Object.entries(args).flatMap(([key, { index }]): ValidatedParameter[] => {
      const form = key.startsWith(`${RouteParamtypes.BODY}:`)
        ? 'body'
        : key.startsWith(`${RouteParamtypes.QUERY}:`)
          ? 'query'
          : undefined;
      const metatype = types[index];
      return form && !UNVALIDATED_TYPES.includes(metatype) ? [{ form, metatype: metatype as DtoClass }] : [];
    });
  });
}

const pipe = createValidationPipe();

type Outcome = { accepted: unknown } | { refused: unknown };

/** The pipe's full path: `super.transform`, what the pipe did for every input before the fast path. */
function fullPath(value: unknown, { form, metatype }: ValidatedParameter): Promise<Outcome> {
  return (ValidationPipe.prototype.transform.call(pipe, value, { type: form, metatype }) as Promise<unknown>).then(
    (accepted) => ({ accepted }),
    (refused: unknown) => ({ refused }),
  );
}

function fastPath({ metatype }: ValidatedParameter): FastValidation {
  const fast = compileFastValidation(metatype);
  if (!fast) throw new Error(`${metatype.name} has no fast path`);
  return fast;
}

function asInput({ form }: ValidatedParameter, value: Record<string, unknown>): Record<string, unknown> {
  return form === 'query' ? Object.assign(Object.create(null) as object, value) : { ...value };
}

/**
 * The fast path's answer is undefined, or what the full path returns: same
 * prototype, same own keys in the same order, deep-equal values. It never
 * accepts what the full path refuses, nor a key the class does not declare
 * (the pipe refuses those on the raw input), and leaves its input as it was.
 */
async function expectSameOutcome(parameter: ValidatedParameter, value: Record<string, unknown>): Promise<boolean> {
  const before = JSON.stringify(value);
  const fast = fastPath(parameter)(value);
  expect(JSON.stringify(value)).toBe(before);
  const full = await fullPath(value, parameter);
  if (fast === undefined) return false;
  if ('refused' in full) throw new Error(`the fast path accepted ${before}, which the full path refuses`);
  const declared = propertyRules(parameter.metatype).map((rule) => rule.name);
  expect(Object.keys(value).filter((key) => !declared.includes(key))).toEqual([]);
  expect(Object.getPrototypeOf(fast)).toBe(Object.getPrototypeOf(full.accepted));
  expect(Object.keys(fast)).toEqual(Object.keys(full.accepted as object));
  expect(fast).toStrictEqual(full.accepted);
  return true;
}

describe('validation of every DTO the service validates', () => {
  let parameters: ValidatedParameter[];

  beforeAll(async () => {
    const controllers = await controllersOf(AppModule.register());
    const unique = new Map<DtoClass, ValidatedParameter>();
    for (const parameter of [...new Set(controllers)].flatMap(validatedParameters)) {
      unique.set(parameter.metatype, parameter);
    }
    parameters = [...unique.values()];
  });

  const fastOnes = (): ValidatedParameter[] =>
    parameters.filter(({ metatype }) => FULL_PATH_ONLY[metatype.name] === undefined);

  it('lists each of them, by the part of the request it validates', () => {
    const found = (form: InputForm) =>
      parameters
        .filter((parameter) => parameter.form === form)
        .map(({ metatype }) => metatype.name)
        .sort();
    const listed = (form: InputForm) =>
      [...Object.keys(VALID_INPUTS[form]), ...(form === 'body' ? Object.keys(FULL_PATH_ONLY) : [])].sort();
    expect(found('query')).toEqual(listed('query'));
    expect(found('body')).toEqual(listed('body'));
  });

  it('compiles a fast path for each but those listed as full path only', () => {
    for (const { metatype } of parameters) {
      expect({ [metatype.name]: compileFastValidation(metatype) !== null }).toEqual({
        [metatype.name]: FULL_PATH_ONLY[metatype.name] === undefined,
      });
    }
  });

  it('takes the fast path for plainly valid inputs, with what the full path returns', async () => {
    for (const parameter of fastOnes()) {
      const name = parameter.metatype.name;
      for (const value of VALID_INPUTS[parameter.form][name]) {
        const tookFastPath = await expectSameOutcome(parameter, asInput(parameter, value));
        expect({ [name]: value, tookFastPath }).toEqual({ [name]: value, tookFastPath: true });
      }
    }
  });

  it('never answers otherwise than the full path, for generated valid and invalid inputs', async () => {
    for (const parameter of fastOnes()) {
      let accepted = 0;
      await fc.assert(
        fc.asyncProperty(dtoInputs(parameter.metatype, parameter.form), async (value) => {
          if (await expectSameOutcome(parameter, value)) accepted++;
        }),
        { numRuns: 500 },
      );
      // A third of the inputs are plainly valid: a fast path that never fires fails here.
      expect({ [parameter.metatype.name]: accepted > 20 }).toEqual({ [parameter.metatype.name]: true });
    }
  });
});
