import { setFlagsFromString } from 'node:v8';

// V8's own answers about an object's hidden class, through its test syntax
// (allowed for code compiled from here on: hence `new Function`).
setFlagsFromString('--allow-natives-syntax');

/** Whether `a` and `b` have the same hidden class (map). */
export const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

/** Whether `o` keeps fast (in-map) properties rather than being a dictionary. */
export const hasFastProperties = new Function('o', 'return %HasFastProperties(o)') as (o: object) => boolean;
