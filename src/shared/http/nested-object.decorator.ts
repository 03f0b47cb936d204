import { applyDecorators } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsObject, ValidateNested } from 'class-validator';

/**
 * A property holding one nested DTO, validated strictly: it must be a JSON object
 * (`@ValidateNested` alone accepts an array and validates each element, so `[]`
 * would pass as "nothing wrong"), and its own fields are validated as a `type`.
 * Every nested DTO goes through this decorator.
 */
export const NestedObject = (type: () => new () => object): PropertyDecorator =>
  applyDecorators(IsObject(), ValidateNested(), Type(type));
