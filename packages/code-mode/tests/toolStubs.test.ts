import { toolDefinition } from '@chatwire/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CodeModeError, createToolStubs, isIdentifier, outputJsonSchema, type StubSource } from '../src/index.js';

/** The stub of one tool made from a hand-written JSON Schema. */
const stubOf = (parameters: Record<string, unknown>, extra: Partial<StubSource> = {}): string =>
  createToolStubs([{ name: 'demo', description: 'A demo API.', parameters, ...extra }]).get('demo')?.typeStub ?? '';

describe('stub generator', () => {
  it('renders primitives, and optional properties from `required`', () => {
    const stub = stubOf({
      type: 'object',
      properties: {
        s: { type: 'string' },
        n: { type: 'number' },
        i: { type: 'integer' },
        b: { type: 'boolean' },
        z: { type: 'null' },
        any: {},
      },
      required: ['s', 'n'],
    });
    expect(stub).toMatchInlineSnapshot(`
      "interface DemoInput {
        s: string;
        n: number;
        i?: number;
        b?: boolean;
        z?: null;
        any?: unknown;
      }
      /** A demo API. */
      declare function external_demo(input: DemoInput): Promise<unknown>;"
    `);
  });

  it('puts enum and const before type', () => {
    const stub = stubOf({
      type: 'object',
      properties: {
        unit: { type: 'string', enum: ['C', 'F'] },
        level: { type: 'integer', enum: [1, 2, 3] },
        maybe: { enum: ['yes', null] },
        kind: { type: 'string', const: 'point' },
        quoted: { type: 'string', enum: ['say "hi"'] },
      },
      required: ['unit', 'level', 'maybe', 'kind', 'quoted'],
    });
    expect(stub).toMatchInlineSnapshot(`
      "interface DemoInput {
        unit: "C" | "F";
        level: 1 | 2 | 3;
        maybe: "yes" | null;
        kind: "point";
        quoted: "say \\"hi\\"";
      }
      /** A demo API. */
      declare function external_demo(input: DemoInput): Promise<unknown>;"
    `);
  });

  it('renders nullable types in all three spellings', () => {
    const stub = stubOf({
      type: 'object',
      properties: {
        typeArray: { type: ['string', 'null'] },
        openApi: { type: 'number', nullable: true },
        anyOf: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      },
      required: ['typeArray', 'openApi', 'anyOf'],
    });
    expect(stub).toMatchInlineSnapshot(`
      "interface DemoInput {
        typeArray: string | null;
        openApi: number | null;
        anyOf: string | null;
      }
      /** A demo API. */
      declare function external_demo(input: DemoInput): Promise<unknown>;"
    `);
  });

  it('renders anyOf/oneOf as unions, allOf as intersections, and parenthesises unions in arrays', () => {
    const stub = stubOf({
      type: 'object',
      properties: {
        shape: {
          oneOf: [
            { type: 'object', properties: { kind: { const: 'circle' }, radius: { type: 'number' } }, required: ['kind', 'radius'] },
            { type: 'object', properties: { kind: { const: 'square' }, side: { type: 'number' } }, required: ['kind', 'side'] },
          ],
        },
        tagged: {
          allOf: [
            { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
            { type: 'object', properties: { b: { type: 'number' } } },
          ],
        },
        ids: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'number' }] } },
        matrix: { type: 'array', items: { type: 'array', items: { type: 'number' } } },
      },
      required: ['shape', 'tagged', 'ids', 'matrix'],
    });
    expect(stub).toMatchInlineSnapshot(`
      "interface DemoInput {
        shape: {
          kind: "circle";
          radius: number;
        } | {
          kind: "square";
          side: number;
        };
        tagged: {
          a: string;
        } & {
          b?: number;
        };
        ids: (string | number)[];
        matrix: number[][];
      }
      /** A demo API. */
      declare function external_demo(input: DemoInput): Promise<unknown>;"
    `);
  });

  it('renders tuples (prefixItems, with and without a rest; draft-07 item arrays)', () => {
    const stub = stubOf({
      type: 'object',
      properties: {
        pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false, minItems: 2, maxItems: 2 },
        headAndRest: { type: 'array', prefixItems: [{ type: 'string' }], items: { type: 'boolean' } },
        draft7: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }], additionalItems: false },
      },
      required: ['pair', 'headAndRest', 'draft7'],
    });
    expect(stub).toMatchInlineSnapshot(`
      "interface DemoInput {
        pair: [string, number];
        headAndRest: [string, ...boolean[]];
        draft7: [string, number];
      }
      /** A demo API. */
      declare function external_demo(input: DemoInput): Promise<unknown>;"
    `);
  });

  it('renders records from additionalProperties and patternProperties', () => {
    const stub = stubOf({
      type: 'object',
      properties: {
        scores: { type: 'object', additionalProperties: { type: 'number' } },
        closed: { type: 'object', additionalProperties: false },
        open: { type: 'object' },
        mixed: { type: 'object', properties: { total: { type: 'number' } }, required: ['total'], additionalProperties: { type: 'string' } },
        patterned: { type: 'object', patternProperties: { '^x-': { type: 'string' } } },
      },
      required: ['scores', 'closed', 'open', 'mixed', 'patterned'],
    });
    expect(stub).toMatchInlineSnapshot(`
      "interface DemoInput {
        scores: Record<string, number>;
        closed: Record<string, never>;
        open: Record<string, unknown>;
        mixed: {
          total: number;
        } & Record<string, string>;
        patterned: Record<string, string>;
      }
      /** A demo API. */
      declare function external_demo(input: DemoInput): Promise<unknown>;"
    `);
  });

  it('declares $defs once, follows recursion, and resolves #, definitions and missing refs', () => {
    const stub = stubOf({
      type: 'object',
      properties: {
        home: { $ref: '#/$defs/address' },
        work: { $ref: '#/$defs/address' },
        tree: { $ref: '#/definitions/Node' },
        parent: { $ref: '#' },
        ghost: { $ref: '#/$defs/missing' },
        remote: { $ref: 'https://example.com/schema.json' },
      },
      required: ['home', 'tree'],
      $defs: {
        address: { type: 'object', description: 'A postal address.', properties: { street: { type: 'string' } }, required: ['street'] },
      },
      definitions: {
        Node: {
          type: 'object',
          properties: { value: { type: 'number' }, children: { type: 'array', items: { $ref: '#/definitions/Node' } } },
          required: ['value', 'children'],
        },
      },
    });
    expect(stub).toMatchInlineSnapshot(`
      "/** A postal address. */
      interface DemoAddress {
        street: string;
      }
      interface DemoNode {
        value: number;
        children: DemoNode[];
      }
      interface DemoInput {
        home: DemoAddress;
        work?: DemoAddress;
        tree: DemoNode;
        parent?: DemoInput;
        ghost?: unknown;
        remote?: unknown;
      }
      /** A demo API. */
      declare function external_demo(input: DemoInput): Promise<unknown>;"
    `);
  });

  it('names zod’s anonymous reused schemas after the property that uses them', () => {
    const node: z.ZodType<{ name: string; children: unknown[] }> = z.object({
      name: z.string(),
      get children() {
        return z.array(node);
      },
    });
    const tool = toolDefinition({
      name: 'walkTree',
      description: 'Walks a tree.',
      inputSchema: z.object({ root: node, backup: node.optional() }),
    });
    const stub = createToolStubs([{ name: tool.name, description: tool.description, parameters: tool.parameters }]).get(
      'walkTree',
    )?.typeStub;
    expect(stub).toMatchInlineSnapshot(`
      "interface WalkTreeRoot {
        name: string;
        children: WalkTreeRoot[];
      }
      interface WalkTreeInput {
        root: WalkTreeRoot;
        backup?: WalkTreeRoot;
      }
      /** Walks a tree. */
      declare function external_walkTree(input: WalkTreeInput): Promise<unknown>;"
    `);
  });

  it('writes descriptions, defaults and constraints as JSDoc, and cannot be closed early', () => {
    const stub = stubOf(
      {
        type: 'object',
        properties: {
          city: { type: 'string', description: 'City name', minLength: 1, maxLength: 80 },
          unit: { type: 'string', enum: ['C', 'F'], default: 'C', description: 'Temperature unit.\nCelsius unless asked.' },
          days: { type: 'integer', minimum: 1, maximum: 14, default: 3 },
          email: { type: 'string', format: 'email', pattern: '^[^@]+@[^@]+$' },
          sneaky: { type: 'string', description: 'ends the comment */ declare const pwned: true; /*' },
          old: { type: 'boolean', deprecated: true },
        },
        required: ['city'],
      },
      { description: 'Forecast for a city.\n\nUses the */ public service.' },
    );
    expect(stub).toMatchInlineSnapshot(`
      "interface DemoInput {
        /**
         * City name
         * @minLength 1
         * @maxLength 80
         */
        city: string;
        /**
         * Temperature unit.
         * Celsius unless asked.
         * @default "C"
         */
        unit?: "C" | "F";
        /**
         * @default 3
         * @minimum 1
         * @maximum 14
         */
        days?: number;
        /**
         * @format email
         * @pattern ^[^@]+@[^@]+$
         */
        email?: string;
        /** ends the comment *\\/ declare const pwned: true; /* */
        sneaky?: string;
        /** @deprecated */
        old?: boolean;
      }
      /**
       * Forecast for a city.
       *
       * Uses the *\\/ public service.
       */
      declare function external_demo(input: DemoInput): Promise<unknown>;"
    `);
  });

  it('quotes keys that are not identifiers and indents nested objects', () => {
    const stub = stubOf({
      type: 'object',
      properties: {
        'odd-key': { type: 'string' },
        '123': { type: 'number' },
        'with space': { type: 'boolean' },
        $ok: { type: 'string' },
        _ok: { type: 'string' },
        default: { type: 'string' },
        'quote"d': { type: 'string' },
        outer: {
          type: 'object',
          properties: { middle: { type: 'object', properties: { inner: { type: 'string', description: 'deep' } }, required: ['inner'] } },
          required: ['middle'],
        },
      },
      required: ['odd-key', 'outer'],
    });
    expect(stub).toMatchInlineSnapshot(`
      "interface DemoInput {
        "123"?: number;
        "odd-key": string;
        "with space"?: boolean;
        $ok?: string;
        _ok?: string;
        default?: string;
        "quote\\"d"?: string;
        outer: {
          middle: {
            /** deep */
            inner: string;
          };
        };
      }
      /** A demo API. */
      declare function external_demo(input: DemoInput): Promise<unknown>;"
    `);
  });

  it('reads the output type through Standard JSON Schema, makes input optional when nothing is required', () => {
    const tool = toolDefinition({
      name: 'listCities',
      description: 'Lists cities.',
      inputSchema: z.object({ limit: z.number().int().default(10) }),
      outputSchema: z.array(z.object({ name: z.string(), population: z.number() })),
    });
    const noOutput = toolDefinition({ name: 'ping', description: 'Pings.', inputSchema: z.object({}) });
    const stubs = createToolStubs([
      { name: tool.name, description: tool.description, parameters: tool.parameters, output: outputJsonSchema(tool) },
      { name: noOutput.name, description: noOutput.description, parameters: noOutput.parameters, output: outputJsonSchema(noOutput) },
    ]);
    expect(stubs.get('listCities')?.typeStub).toMatchInlineSnapshot(`
      "interface ListCitiesInput {
        /** @default 10 */
        limit?: number;
      }
      type ListCitiesOutput = {
        name: string;
        population: number;
      }[];
      /** Lists cities. */
      declare function external_listCities(input?: ListCitiesInput): Promise<ListCitiesOutput>;"
    `);
    expect(stubs.get('ping')?.typeStub).toMatchInlineSnapshot(`
      "type PingInput = Record<string, unknown>;
      /** Pings. */
      declare function external_ping(input?: PingInput): Promise<unknown>;"
    `);
  });

  it('keeps type names unique across tools', () => {
    const object = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
    const stubs = createToolStubs([
      { name: 'getTree', description: 'Lower.', parameters: object },
      { name: 'GetTree', description: 'Upper.', parameters: object },
    ]);
    expect(stubs.get('getTree')?.typeStub).toContain('interface GetTreeInput {');
    expect(stubs.get('GetTree')?.typeStub).toContain('interface GetTreeInput2 {');
    expect(stubs.get('GetTree')?.typeStub).toContain('declare function external_GetTree(input: GetTreeInput2): Promise<unknown>;');
  });

  it('survives cyclic schema objects and absurd nesting', () => {
    const cyclic: Record<string, unknown> = { type: 'object', properties: {} };
    (cyclic['properties'] as Record<string, unknown>)['self'] = cyclic;
    const stub = stubOf(cyclic);
    expect(stub).toContain('declare function external_demo(');
    expect(stub.match(/unknown/g)?.length).toBeGreaterThan(0);
  });

  it('validates tool names as identifiers that are not reserved words', () => {
    for (const name of ['get-weather', '1abc', 'delete', 'class', 'with space', 'ünïcode', '']) {
      expect(() => createToolStubs([{ name, description: 'x', parameters: { type: 'object' } }])).toThrow(CodeModeError);
    }
    for (const name of ['getWeather', '_private', '$dollar', 'snake_case_2']) expect(isIdentifier(name)).toBe(true);
    expect(() => createToolStubs([{ name: 'get-weather', description: 'x', parameters: { type: 'object' } }])).toThrow(
      expect.objectContaining({ code: 'invalid-tool-name', message: expect.stringContaining("'get-weather'") }),
    );
  });
});
