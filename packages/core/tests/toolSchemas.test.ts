import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod3';
import { zodToJsonSchema } from 'zod-to-json-schema';
import { jsonSchema, toolDefinition, type AnyTool } from '@chatwire/core';
import { executeTool, toWireTool, validateToolInput, validateToolOutput } from '@chatwire/core/shared';

/**
 * The same tool, `{ city: string; days?: number }`, defined with each schema style an app may use.
 * The JSON Schema the model receives is written out by hand below, from JSON Schema's own rules.
 */
const weatherJsonSchema = {
  type: 'object',
  properties: { city: { type: 'string' }, days: { type: 'number' } },
  required: ['city'],
};

/** zod-to-json-schema, as a zod 3 app would call it (its types recurse too deep for this test's zod 3 copy). */
const toJsonSchema = zodToJsonSchema as unknown as (schema: unknown) => Record<string, unknown>;

/** `toolDefinition` without its compile-time checks, to show what it does with input the types forbid. */
const untypedDefinition = toolDefinition as unknown as (config: Record<string, unknown>) => unknown;

const definitions: { readonly library: string; readonly tool: AnyTool }[] = [
  {
    library: 'zod 4',
    tool: toolDefinition({
      name: 'weather',
      description: 'Weather.',
      inputSchema: z.object({ city: z.string(), days: z.number().optional() }),
    }),
  },
  {
    library: 'zod 3 with parameters from zod-to-json-schema',
    tool: (() => {
      const schema = z3.object({ city: z3.string(), days: z3.number().optional() });
      return toolDefinition({ name: 'weather', description: 'Weather.', inputSchema: schema, parameters: toJsonSchema(schema) });
    })(),
  },
  {
    library: 'valibot through toStandardJsonSchema',
    tool: toolDefinition({
      name: 'weather',
      description: 'Weather.',
      inputSchema: toStandardJsonSchema(v.object({ city: v.string(), days: v.optional(v.number()) })),
    }),
  },
  {
    library: 'arktype',
    tool: toolDefinition({ name: 'weather', description: 'Weather.', inputSchema: type({ city: 'string', 'days?': 'number' }) }),
  },
  {
    library: 'plain JSON Schema',
    tool: toolDefinition({
      name: 'weather',
      description: 'Weather.',
      inputSchema: { $schema: 'https://json-schema.org/draft/2020-12/schema', ...weatherJsonSchema },
    }),
  },
  {
    library: 'plain JSON Schema typed with jsonSchema<T>()',
    tool: toolDefinition({
      name: 'weather',
      description: 'Weather.',
      inputSchema: jsonSchema<{ city: string; days?: number }>(weatherJsonSchema),
    }),
  },
];

describe.each(definitions)('a tool whose schema is $library', ({ tool }) => {
  it('sends the model the JSON Schema of its input (no $schema dialect)', () => {
    expect(tool.parameters).toMatchObject(weatherJsonSchema);
    expect(tool.parameters).not.toHaveProperty('$schema');
    expect(toWireTool(tool)).toMatchObject({ name: 'weather', description: 'Weather.', parameters: weatherJsonSchema });
  });

  it('accepts valid input and hands it to the implementation', async () => {
    expect(await validateToolInput(tool, { city: 'Paris', days: 2 })).toEqual({ ok: true, value: { city: 'Paris', days: 2 } });
    const server = tool.server(({ city, days }: { city: string; days?: number }) => ({ forecast: `${city} for ${days ?? 1} days` }));
    const outcome = await executeTool(server, { city: 'Oslo' }, { toolCallId: 'c1', signal: new AbortController().signal });
    expect(outcome).toEqual({ ok: true, output: { forecast: 'Oslo for 1 days' }, content: '{"forecast":"Oslo for 1 days"}' });
  });

  it('refuses invalid input with an error naming the tool and the field', async () => {
    const checked = await validateToolInput(tool, { city: 42 });
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.error).toMatch(/^Invalid arguments for 'weather': city: /);
    // Each library says it in its own words, but every one says a string was expected.
    expect(checked.error.toLowerCase()).toContain('string');

    const missing = await validateToolInput(tool, {});
    expect(missing.ok).toBe(false);
    if (!missing.ok) expect(missing.error).toMatch(/city/);

    const server = tool.server(() => 'never runs');
    const outcome = await executeTool(server, { city: 42 }, { toolCallId: 'c2', signal: new AbortController().signal });
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(JSON.parse(outcome.content)).toEqual({ error: expect.stringMatching(/Invalid arguments for 'weather'/) });
  });
});

describe('schemas that cannot describe themselves', () => {
  it('a zod 3 schema without parameters is refused at definition time, saying what to pass', () => {
    expect(() => untypedDefinition({ name: 'legacy', description: 'Legacy.', inputSchema: z3.object({ city: z3.string() }) })).toThrow(
      /Tool 'legacy'.*zod schema validates but cannot produce JSON Schema.*`parameters`.*zodToJsonSchema/s,
    );
  });

  it('something that is neither a validator nor a JSON Schema object is refused', () => {
    expect(() => untypedDefinition({ name: 'odd', description: 'Odd.', inputSchema: 'string' })).toThrow(/Tool 'odd': inputSchema must be/);
  });

  it('explicit parameters override what a validator converts to (and are sent as given)', () => {
    const tool = toolDefinition({
      name: 'tuned',
      description: 'Tuned.',
      inputSchema: z.object({ q: z.string() }),
      parameters: { type: 'object', properties: { q: { type: 'string', description: 'What to look for.' } }, required: ['q'] },
    });
    expect(tool.parameters).toEqual({
      type: 'object',
      properties: { q: { type: 'string', description: 'What to look for.' } },
      required: ['q'],
    });
  });
});

describe('plain JSON Schema validation', () => {
  const tool = toolDefinition({
    name: 'createOrder',
    description: 'Create an order.',
    inputSchema: {
      type: 'object',
      properties: {
        sku: { type: 'string', minLength: 3 },
        quantity: { type: 'integer', minimum: 1 },
        tags: { type: 'array', items: { type: 'string' } },
      },
      required: ['sku', 'quantity'],
      additionalProperties: false,
    },
  });

  it('names every failing field, nested ones by path, without the wrappers that only say "a child failed"', async () => {
    const checked = await validateToolInput(tool, { sku: 'ab', quantity: 0, tags: ['ok', 7], extra: true });
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    const parts = checked.error.replace("Invalid arguments for 'createOrder': ", '').split('; ');
    expect(parts.some((part) => part.startsWith('sku: '))).toBe(true);
    expect(parts.some((part) => part.startsWith('quantity: '))).toBe(true);
    expect(parts.some((part) => part.startsWith('tags.1: '))).toBe(true);
    expect(parts.some((part) => /extra/.test(part))).toBe(true);
    expect(checked.error).not.toMatch(/does not match schema\.|Items did not match/);
  });

  it('accepts what the schema allows', async () => {
    expect(await validateToolInput(tool, { sku: 'abc', quantity: 2 })).toEqual({ ok: true, value: { sku: 'abc', quantity: 2 } });
  });

  it("jsonSchema() can take the app's own check instead", async () => {
    const even = toolDefinition({
      name: 'even',
      description: 'Even numbers only.',
      inputSchema: jsonSchema<{ n: number }>(
        { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
        {
          validate: (value) => {
            const n = (value as { n?: unknown }).n;
            if (typeof n !== 'number' || n % 2 !== 0) throw new Error('n must be even');
            return { n };
          },
        },
      ),
    });
    expect(await validateToolInput(even, { n: 4 })).toEqual({ ok: true, value: { n: 4 } });
    expect(await validateToolInput(even, { n: 3 })).toEqual({ ok: false, error: "Invalid arguments for 'even': n must be even" });
  });
});

describe('output schemas from any library', () => {
  it.each([
    ['zod 3', z3.object({ celsius: z3.number() })],
    ['valibot', v.object({ celsius: v.number() })],
    ['arktype', type({ celsius: 'number' })],
    ['plain JSON Schema', { type: 'object', properties: { celsius: { type: 'number' } }, required: ['celsius'] }],
  ] as const)('%s: a result that does not match becomes a readable error', async (_library, outputSchema) => {
    const tool = toolDefinition({ name: 'temp', description: 'Temperature.', inputSchema: z.object({}), outputSchema });
    expect(await validateToolOutput(tool, { celsius: 20 })).toEqual({ ok: true, value: { celsius: 20 } });
    const wrong = await validateToolOutput(tool, { celsius: 'warm' });
    expect(wrong.ok).toBe(false);
    if (!wrong.ok) expect(wrong.error).toMatch(/^'temp' returned a result that does not match its output schema: celsius: /);
  });
});

describe('validators that misbehave', () => {
  it('an async validator works; a throwing one fails the call instead of throwing', async () => {
    const asyncSchema = z.object({ id: z.string() }).refine(async (value) => value.id !== 'taken', { message: 'id is taken' });
    const tool = toolDefinition({ name: 'claim', description: 'Claim an id.', inputSchema: asyncSchema });
    expect(await validateToolInput(tool, { id: 'free' })).toEqual({ ok: true, value: { id: 'free' } });
    expect(await validateToolInput(tool, { id: 'taken' })).toEqual({ ok: false, error: "Invalid arguments for 'claim': id is taken" });

    const throwing = toolDefinition({
      name: 'broken',
      description: 'Broken validator.',
      inputSchema: jsonSchema({ type: 'object' }, { validate: () => Promise.reject(new TypeError('validator crashed')) }),
    });
    expect(await validateToolInput(throwing, {})).toEqual({ ok: false, error: "Invalid arguments for 'broken': validator crashed" });
  });
});
