// The bundle's text, rewritten once esbuild has written it (scripts/bundle.mjs):
// `import()` handed to the launcher, and the naming wrappers of esbuild's
// `keepNames` dropped where they cost at run time and restate a name JavaScript
// gives anyway. Kept apart from the build so that its tests can run it on small
// inputs (test/bundle-rewrite.e2e-spec.ts).
import { parse } from 'acorn';
import { ancestor, simple } from 'acorn-walk';

/**
 * A script compiled by `vm` has no module loader: each `import(…)` expression of
 * the bundle (the embedded PostgreSQL package, Nest's optional packages) calls the
 * launcher's `import` instead, given as `__import` by its wrapper. Found by parsing,
 * so that the text "import(" inside a string (TypeORM builds such a function with
 * `Function`) is left alone.
 *
 * The same pass drops `keepNames`' wrapper where it restates the name JavaScript
 * already gives (`const onError = __name((err) => …, "onError")`, `{ getRequest:
 * __name(() => …, "getRequest") }`): those wrappers run each time the enclosing
 * function does (pg's query, Nest's `switchToHttp`, on every request), and each
 * redefines a new closure's `name` (about 3 % of a request's CPU in a profile).
 * `__name(f, "n")` becomes `(f)`, which JavaScript names "n" where it stands; and
 * `__name(next, "next")` of a function declared beside it, `0`. Classes: see
 * `unnameClass`. Functions whose name the bundler changed keep their wrapper.
 */
export function rewriteForLauncher(code) {
  const edits = [];
  let unwrapped = 0;
  let classes = 0;
  ancestor(parse(code, { ecmaVersion: 'latest', sourceType: 'script', allowReturnOutsideFunction: true }), {
    ImportExpression: (node) => {
      if (code.slice(node.start, node.start + 6) !== 'import') throw new Error(`import() expected at ${node.start}`);
      edits.push({ start: node.start, end: node.start + 6, text: '__import' });
    },
    ClassDeclaration: (node) => {
      if (unnameClass(node, undefined, edits)) classes += 1;
    },
    ClassExpression: (node, _state, ancestors) => {
      if (unnameClass(node, ancestors[ancestors.length - 2], edits)) classes += 1;
    },
    CallExpression: (node, _state, ancestors) => {
      if (namesOwnDeclaration(node, ancestors)) {
        edits.push({ start: node.start, end: node.end, text: '0' }); // its value was not used
        unwrapped += 1;
        return;
      }
      if (!restatesInferredName(node, ancestors[ancestors.length - 2])) return;
      // `__name(f, "n")` becomes `(f)`: the call's parentheses stay, as grouping (a function that
      // was parenthesized keeps its own), and a parenthesized function is named as a bare one.
      const [fn, given] = node.arguments;
      const comma = code.lastIndexOf(',', given.start);
      if (comma < fn.end) throw new Error(`__name call without a comma at ${node.start}`);
      edits.push({ start: node.start, end: node.callee.end, text: '' }, { start: comma, end: given.end, text: '' });
      unwrapped += 1;
    },
  });
  if (!edits.some((edit) => edit.text === '__import'))
    throw new Error('no import() in the bundle: review rewriteForLauncher');
  if (unwrapped === 0) throw new Error('no __name wrapper restating a name: review restatesInferredName');
  if (classes === 0) throw new Error("no class's naming block dropped: review unnameClass");
  let out = '';
  let from = 0;
  for (const edit of edits.sort((a, b) => a.start - b.start)) {
    out += code.slice(from, edit.start) + edit.text;
    from = edit.end;
  }
  out += code.slice(from);
  parse(out, { ecmaVersion: 'latest', sourceType: 'script', allowReturnOutsideFunction: true }); // still JavaScript
  return out;
}

/**
 * A class's `static { __name(this, "N"); }` block, which `keepNames` adds to every class:
 * redefining a class's `name` turns the class (the function) into a dictionary-mode
 * object, and V8's optimizing compiler then gives up on every function that constructs
 * it or calls `super()` through it (each attempt aborted, retried and aborted again on a
 * background thread, the callers left unoptimized: Node's HTTP parser callbacks for the
 * app's request and response classes, pg's `query`). Dropped where the class is named
 * "N" anyway; where the bundler renamed it (`var Query3 = class { static { __name(this,
 * "Query"); } }`), the class expression gets "N" as its own name instead, when nothing in
 * the class reads an outer binding of that name. Classes with a static `name` member
 * keep theirs (the block overrides it).
 */
function unnameClass(node, parent, edits) {
  const blocks = node.body.body.filter((member) => namingBlock(member) !== null);
  if (blocks.length !== 1) return false;
  const given = namingBlock(blocks[0]);
  const ownName = node.id?.name ?? inferredName(node, parent);
  const staticName = node.body.body.some(
    (member) => member !== blocks[0] && member.static && !member.computed && member.key?.name === 'name',
  );
  if (staticName) return false;
  if (ownName !== given) {
    const renamable = node.type === 'ClassExpression' && node.id === null && !readsName(node, given);
    if (!renamable) return false;
    edits.push({ start: node.start + 'class'.length, end: node.start + 'class'.length, text: ` ${given}` });
  }
  edits.push({ start: blocks[0].start, end: blocks[0].end, text: '' });
  return true;
}

/** "N" for a class member `static { __name(this, "N"); }`, null for any other member. */
function namingBlock(member) {
  if (member.type !== 'StaticBlock' || member.body.length !== 1) return null;
  const [statement] = member.body;
  if (statement.type !== 'ExpressionStatement' || statement.expression.type !== 'CallExpression') return null;
  const [target, given] = nameCallArguments(statement.expression) ?? [];
  return target?.type === 'ThisExpression' ? given.value : null;
}

/** Whether any identifier in `node` is spelt `name` (a conservative stand-in for "reads a binding"). */
function readsName(node, name) {
  let found = false;
  simple(node, { Identifier: (id) => (found ||= id.name === name) });
  return found;
}

/** The function and the name of a `__name(<function>, "<name>")` call, or null for any other call. */
function nameCallArguments(call) {
  if (call.callee.type !== 'Identifier' || call.callee.name !== '__name' || call.arguments.length !== 2) return null;
  const [fn, given] = call.arguments;
  return given.type === 'Literal' && typeof given.value === 'string' ? [fn, given] : null;
}

/**
 * `__name(next, "next");` (or `…, next()` with its value unused) where `next` is a function
 * declared in the same body as `function next(…)`: its name already. A function's inner
 * helpers get one each, run at every call (Express's router: twice per request).
 */
function namesOwnDeclaration(call, ancestors) {
  const [target, given] = nameCallArguments(call) ?? [];
  if (target?.type !== 'Identifier' || given.value !== target.name) return false;
  const parent = ancestors[ancestors.length - 2];
  const valueUnused =
    parent.type === 'ExpressionStatement' ||
    (parent.type === 'SequenceExpression' && parent.expressions.at(-1) !== call);
  if (!valueUnused) return false;
  const body = ancestors.findLast((node) => node.type === 'BlockStatement' || node.type === 'Program');
  return body.body.some((statement) => statement.type === 'FunctionDeclaration' && statement.id.name === target.name);
}

/** `__name(<function>, "n")` where the function would be named "n" anyway, by where it stands. */
function restatesInferredName(call, parent) {
  const [fn, given] = nameCallArguments(call) ?? [];
  if (fn === undefined) return false;
  const anonymous = fn.type === 'ArrowFunctionExpression' || (fn.type === 'FunctionExpression' && fn.id === null);
  if (!anonymous) return fn.type === 'FunctionExpression' && fn.id.name === given.value;
  return inferredName(call, parent) === given.value;
}

/** The name JavaScript gives an anonymous function or class `node` where it stands in `parent`, or null. */
function inferredName(node, parent) {
  const keyName = (key) => (key.type === 'Identifier' ? key.name : key.type === 'Literal' ? String(key.value) : null);
  switch (parent?.type) {
    case 'VariableDeclarator':
      return parent.init === node && parent.id.type === 'Identifier' ? parent.id.name : null;
    case 'AssignmentExpression':
      return parent.right === node && parent.operator === '=' && parent.left.type === 'Identifier'
        ? parent.left.name
        : null;
    case 'Property':
    case 'PropertyDefinition':
      return parent.value === node && !parent.computed && parent.kind !== 'get' && parent.kind !== 'set'
        ? keyName(parent.key)
        : null;
    default:
      return null;
  }
}
