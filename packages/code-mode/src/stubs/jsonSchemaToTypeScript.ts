import type { JsonSchema } from '@chatwire/core';
import { propertyKey, typeNameFrom } from './identifiers.js';

/**
 * Turns JSON Schema into TypeScript type text for the stubs a model reads. Hand-written on purpose:
 * `json-schema-to-typescript` (the usual library) pulls in a formatter and a `$ref` resolver that
 * does file and network I/O, emits whole modules rather than the inline types a prompt needs, and
 * cannot share one set of type names across many tools. What the model needs is small: enum and
 * const before type, nullable, unions, tuples, records, `$ref`/`$defs` (recursion included), and
 * each property's description and default as JSDoc.
 */

/** Hands out unique type names across every stub of one Code Mode instance. */
export class TypeNames {
  readonly #taken = new Set<string>();

  /** `wanted`, or `wanted2`, `wanted3`... if it is taken. */
  claim(wanted: string): string {
    let name = wanted;
    for (let n = 2; this.#taken.has(name); n++) name = `${wanted}${n}`;
    this.#taken.add(name);
    return name;
  }
}

/** A rendered type and how tightly it binds (for parentheses in unions and arrays). */
interface Rendered {
  readonly text: string;
  /** `object`: an object literal type (declarable as an interface); `primary`: anything else that needs no parentheses. */
  readonly binding: 'union' | 'intersection' | 'object' | 'primary';
}

const primary = (text: string): Rendered => ({ text, binding: 'primary' });
const UNKNOWN = primary('unknown');
/** Deeper than this, a schema renders as `unknown` (guards against cyclic objects and runaway nesting). */
const MAX_DEPTH = 24;
const INDENT = '  ';

type Schema = Readonly<Record<string, unknown>>;

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

/** JSDoc tags worth showing a model, in this order. */
const CONSTRAINT_TAGS = [
  'format',
  'minimum',
  'exclusiveMinimum',
  'maximum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
] as const;

/**
 * Renders the types of one JSON Schema document (a tool's input or output). Named types (`$defs`,
 * the root when it is referenced) become declarations collected in {@link declarations}.
 */
export class SchemaRenderer {
  readonly #root: JsonSchema;
  readonly #prefix: string;
  readonly #names: TypeNames;
  readonly #rootName: string;
  /** `$ref` target -> declared type name. */
  readonly #declared = new Map<string, string>();
  readonly #declarations: string[] = [];

  /**
   * @param root The schema document (`$ref`s resolve against it).
   * @param rootName The type name the root gets when declared (and when `$ref: '#'` points to it).
   * @param prefix Prefix of `$defs` type names, e.g. the tool's name in PascalCase.
   */
  constructor(root: JsonSchema, rootName: string, prefix: string, names: TypeNames) {
    this.#root = root;
    this.#rootName = rootName;
    this.#prefix = prefix;
    this.#names = names;
  }

  /** Declarations produced so far (`interface X {...}` / `type X = ...;`), in dependency-first order. */
  get declarations(): readonly string[] {
    return this.#declarations;
  }

  /** Declares the root under its name and returns that name (`interface` for objects, `type` otherwise). */
  declareRoot(): string {
    return this.#declare('#', this.#root, this.#rootName);
  }

  /** The type of `schema` as inline text. */
  render(schema: unknown, depth = 0, indent = ''): string {
    return this.#render(schema, depth, indent).text;
  }

  #render(schema: unknown, depth: number, indent: string, hint?: string): Rendered {
    if (schema === true || schema === undefined) return UNKNOWN;
    if (schema === false) return primary('never');
    if (!isSchema(schema) || depth > MAX_DEPTH) return UNKNOWN;
    const base = this.#renderCore(schema, depth, indent, hint);
    const nullable = schema['nullable'] === true && base.text !== 'null' && base.text !== 'unknown';
    return nullable ? union([base, primary('null')]) : base;
  }

  #renderCore(schema: Schema, depth: number, indent: string, hint: string | undefined): Rendered {
    const ref = schema['$ref'];
    if (typeof ref === 'string') return primary(this.#reference(ref, hint));
    // Values first: a `type` next to an enum or const says less than they do.
    if ('const' in schema) return primary(literal(schema['const']));
    const values = schema['enum'];
    if (Array.isArray(values)) return values.length === 0 ? primary('never') : union(values.map((value) => primary(literal(value))));
    const variants = schema['anyOf'] ?? schema['oneOf'];
    if (Array.isArray(variants)) return union(variants.map((variant) => this.#render(variant, depth + 1, indent, hint)));
    const parts = schema['allOf'];
    if (Array.isArray(parts)) return intersection(parts.map((part) => this.#render(part, depth + 1, indent, hint)));
    const type = schema['type'];
    if (Array.isArray(type)) {
      return union(type.filter((t): t is string => typeof t === 'string').map((t) => this.#renderType(t, schema, depth, indent, hint)));
    }
    if (typeof type === 'string') return this.#renderType(type, schema, depth, indent, hint);
    if (isSchema(schema['properties']) || 'additionalProperties' in schema) return this.#renderObject(schema, depth, indent, hint);
    if ('items' in schema || 'prefixItems' in schema) return this.#renderArray(schema, depth, indent, hint);
    return UNKNOWN;
  }

  #renderType(type: string, schema: Schema, depth: number, indent: string, hint: string | undefined): Rendered {
    switch (type) {
      case 'string':
        return primary('string');
      case 'number':
      case 'integer':
        return primary('number');
      case 'boolean':
        return primary('boolean');
      case 'null':
        return primary('null');
      case 'array':
        return this.#renderArray(schema, depth, indent, hint);
      case 'object':
        return this.#renderObject(schema, depth, indent, hint);
      default:
        return UNKNOWN;
    }
  }

  #renderArray(schema: Schema, depth: number, indent: string, hint: string | undefined): Rendered {
    // 2020-12 tuples use `prefixItems` (+ `items` for the rest); draft-07 tuples an `items` array (+ `additionalItems`).
    const prefix = Array.isArray(schema['prefixItems'])
      ? schema['prefixItems']
      : Array.isArray(schema['items'])
        ? schema['items']
        : undefined;
    if (prefix) {
      const rest = Array.isArray(schema['prefixItems']) ? schema['items'] : schema['additionalItems'];
      const members = prefix.map((item) => this.#render(item, depth + 1, indent, hint).text);
      if (rest !== false && rest !== undefined) members.push(`...${arrayOf(this.#render(rest, depth + 1, indent, hint))}`);
      return primary(`[${members.join(', ')}]`);
    }
    return primary(arrayOf(this.#render(schema['items'], depth + 1, indent, hint)));
  }

  #renderObject(schema: Schema, depth: number, indent: string, hint: string | undefined): Rendered {
    const properties = isSchema(schema['properties']) ? schema['properties'] : {};
    const required = new Set(Array.isArray(schema['required']) ? schema['required'].filter((key) => typeof key === 'string') : []);
    const keys = Object.keys(properties);
    const extra = schema['additionalProperties'];
    const patterns = isSchema(schema['patternProperties']) ? Object.values(schema['patternProperties']) : [];
    const valueSchemas = [...(isSchema(extra) ? [extra] : []), ...patterns];
    const values = valueSchemas.length ? union(valueSchemas.map((value) => this.#render(value, depth + 1, indent, hint))).text : undefined;

    if (keys.length === 0) {
      if (values) return primary(`Record<string, ${values}>`);
      return primary(extra === false ? 'Record<string, never>' : 'Record<string, unknown>');
    }
    const inner = indent + INDENT;
    const lines: string[] = [];
    for (const key of keys) {
      const property = properties[key];
      const doc = propertyDoc(property, inner);
      if (doc) lines.push(doc);
      const optional = required.has(key) ? '' : '?';
      lines.push(`${inner}${propertyKey(key)}${optional}: ${this.#render(property, depth + 1, inner, key).text};`);
    }
    const body: Rendered = { text: `{\n${lines.join('\n')}\n${indent}}`, binding: 'object' };
    // An index signature must admit every property's type, so the record joins as an intersection.
    return values ? intersection([body, primary(`Record<string, ${values}>`)]) : body;
  }

  /** The type name for a `$ref`, declaring its target on first use. */
  #reference(ref: string, hint: string | undefined): string {
    const known = this.#declared.get(ref);
    if (known) return known;
    if (ref === '#') return this.#declare('#', this.#root, this.#rootName);
    const target = resolvePointer(this.#root, ref);
    if (target === undefined) return 'unknown';
    const key = ref.slice(ref.lastIndexOf('/') + 1);
    // zod names unnamed reused schemas `__schema0`...: the property that first uses one names it better.
    const readable = /^__schema\d+$/.test(key) && hint ? hint : key;
    return this.#declare(ref, target, `${this.#prefix}${pascalCase(readable)}`);
  }

  #declare(ref: string, schema: unknown, wanted: string): string {
    const existing = this.#declared.get(ref);
    if (existing) return existing;
    const name = this.#names.claim(wanted);
    // Registered before rendering, so a recursive reference finds the name instead of recursing.
    this.#declared.set(ref, name);
    const rendered = this.#render(schema, 1, '');
    const doc = isSchema(schema) && typeof schema['description'] === 'string' && ref !== '#' ? jsDoc([schema['description']], '') : '';
    const declaration = rendered.binding === 'object' ? `interface ${name} ${rendered.text}` : `type ${name} = ${rendered.text};`;
    this.#declarations.push(doc ? `${doc}\n${declaration}` : declaration);
    return name;
  }
}

/** Resolves a local JSON Pointer (`#/$defs/Node`, `#/definitions/Node`, `#/properties/a`). */
function resolvePointer(root: JsonSchema, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const segment = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isSchema(node) && !Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}

function union(members: readonly Rendered[]): Rendered {
  const texts = [...new Set(members.map((member) => member.text))];
  if (texts.includes('unknown')) return UNKNOWN;
  if (texts.length === 0) return primary('never');
  if (texts.length === 1) return members.find((member) => member.text === texts[0]) ?? primary(texts[0] as string);
  return { text: texts.join(' | '), binding: 'union' };
}

function intersection(members: readonly Rendered[]): Rendered {
  const texts = [
    ...new Set(
      members
        .filter((member) => member.text !== 'unknown')
        .map((member) => (member.binding === 'union' ? `(${member.text})` : member.text)),
    ),
  ];
  if (texts.length === 0) return UNKNOWN;
  if (texts.length === 1) return members.find((member) => member.text === texts[0]) ?? primary(texts[0] as string);
  return { text: texts.join(' & '), binding: 'intersection' };
}

function arrayOf(item: Rendered): string {
  return item.binding === 'primary' || item.binding === 'object' ? `${item.text}[]` : `(${item.text})[]`;
}

/** A JSON value as a TypeScript literal type (JSON is valid literal-type syntax for every JSON value). */
function literal(value: unknown): string {
  return JSON.stringify(value) ?? 'undefined';
}

/** `Some name-here` -> `SomeNameHere`, safe as (part of) a type name. */
export function pascalCase(text: string): string {
  const words = text.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const joined = words.map((word) => word[0]?.toUpperCase() + word.slice(1)).join('');
  return typeNameFrom(joined);
}

/** The JSDoc block of a property: its description, default and constraints, or `''`. */
function propertyDoc(property: unknown, indent: string): string {
  if (!isSchema(property)) return '';
  const lines: string[] = [];
  if (typeof property['description'] === 'string' && property['description'].trim()) lines.push(property['description'].trim());
  if ('default' in property) lines.push(`@default ${JSON.stringify(property['default'])}`);
  // A tuple's length is already in its type.
  const isTuple = Array.isArray(property['prefixItems']) || Array.isArray(property['items']);
  for (const tag of CONSTRAINT_TAGS) {
    if (isTuple && (tag === 'minItems' || tag === 'maxItems')) continue;
    const value = property[tag];
    // zod writes the safe-integer range on every `.int()`: it tells a model nothing.
    if (typeof value === 'number' && Math.abs(value) >= Number.MAX_SAFE_INTEGER) continue;
    if (typeof value === 'string' || typeof value === 'number') lines.push(`@${tag} ${value}`);
  }
  if (property['deprecated'] === true) lines.push('@deprecated');
  return jsDoc(lines, indent);
}

/** A JSDoc comment: one line when it fits, a block otherwise. `*\/` in the text cannot close it. */
export function jsDoc(lines: readonly string[], indent: string): string {
  const safe = lines.flatMap((line) => line.replace(/\*\//g, '*\\/').split(/\r?\n/)).map((line) => line.trimEnd());
  if (safe.length === 0) return '';
  if (safe.length === 1) return `${indent}/** ${safe[0]} */`;
  return [`${indent}/**`, ...safe.map((line) => (line ? `${indent} * ${line}` : `${indent} *`)), `${indent} */`].join('\n');
}
