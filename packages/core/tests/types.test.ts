import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod3';
import { isToolCallOf, jsonSchema, toolDefinition, type ChatMessage, type ToolCallPartOf } from '@chatwire/core';

const setTheme = toolDefinition({
  name: 'setTheme',
  description: 'Switch the theme.',
  inputSchema: z.object({ theme: z.enum(['light', 'dark']) }),
  outputSchema: z.object({ applied: z.boolean() }),
});
const getWeather = toolDefinition({ name: 'getWeather', description: 'Weather.', inputSchema: z.object({ city: z.string() }) });

describe('types flow from the schemas', () => {
  it('implementations receive the parsed input and must return the output type', () => {
    setTheme.client(async (input) => {
      expectTypeOf(input).toEqualTypeOf<{ theme: 'light' | 'dark' }>();
      return { applied: true };
    });
    // @ts-expect-error the output must match the output schema
    setTheme.server(async () => ({ applied: 'yes' }));
    getWeather.server(async ({ city }) => {
      expectTypeOf(city).toEqualTypeOf<string>();
      return { anything: 1 };
    });
  });

  it('tool-call parts are typed per tool name', () => {
    type Part = ToolCallPartOf<[typeof setTheme, typeof getWeather]>;
    const part = {} as Part;
    if (part.toolName === 'setTheme') {
      expectTypeOf(part.input).toEqualTypeOf<{ theme: 'light' | 'dark' } | undefined>();
      expectTypeOf(part.result?.output).toEqualTypeOf<{ applied: boolean } | undefined>();
    } else {
      expectTypeOf(part.input).toEqualTypeOf<{ city: string } | undefined>();
    }
  });

  it('isToolCallOf narrows any part of any message to the tool it names', () => {
    const message: ChatMessage = { id: 'a', role: 'assistant', parts: [], createdAt: 0 };
    for (const part of message.parts) {
      if (isToolCallOf(part, setTheme)) expectTypeOf(part.input).toEqualTypeOf<{ theme: 'light' | 'dark' } | undefined>();
    }
  });
});

describe('types flow from any schema library', () => {
  it('valibot, arktype, zod 3 and typed JSON Schema give implementations their input type', () => {
    const valibotTool = toolDefinition({
      name: 'valibotTool',
      description: 'v',
      inputSchema: toStandardJsonSchema(v.object({ city: v.string(), days: v.optional(v.number()) })),
      outputSchema: v.object({ ok: v.boolean() }),
    });
    valibotTool.server((input) => {
      expectTypeOf(input).toEqualTypeOf<{ city: string; days?: number | undefined }>();
      return { ok: true };
    });
    // @ts-expect-error the output must match the valibot output schema
    valibotTool.client(() => ({ ok: 'yes' }));

    const arkTool = toolDefinition({ name: 'arkTool', description: 'a', inputSchema: type({ city: 'string', 'days?': 'number' }) });
    arkTool.client((input) => {
      expectTypeOf(input.city).toEqualTypeOf<string>();
      expectTypeOf(input.days).toEqualTypeOf<number | undefined>();
      return null;
    });

    const zod3Schema = z3.object({ city: z3.string() });
    const zod3Tool = toolDefinition({ name: 'zod3Tool', description: 'z3', inputSchema: zod3Schema, parameters: { type: 'object' } });
    zod3Tool.server((input) => {
      expectTypeOf(input).toEqualTypeOf<{ city: string }>();
      return null;
    });
    // @ts-expect-error zod 3 cannot produce JSON Schema: `parameters` is required (and it throws at run time too)
    expect(() => toolDefinition({ name: 'zod3Bare', description: 'z3', inputSchema: zod3Schema })).toThrow(/parameters/);

    const typedJson = toolDefinition({ name: 'typedJson', description: 'j', inputSchema: jsonSchema<{ sku: string }>({ type: 'object' }) });
    typedJson.server((input) => {
      expectTypeOf(input).toEqualTypeOf<{ sku: string }>();
      return null;
    });

    const plainJson = toolDefinition({
      name: 'plainJson',
      description: 'p',
      inputSchema: { type: 'object', properties: { sku: { type: 'string' } } },
    });
    plainJson.server((input) => {
      expectTypeOf(input).toEqualTypeOf<unknown>();
      return null;
    });

    const message: ChatMessage = { id: 'a', role: 'assistant', parts: [], createdAt: 0 };
    for (const part of message.parts) {
      if (isToolCallOf(part, valibotTool)) {
        expectTypeOf(part.input).toEqualTypeOf<{ city: string; days?: number | undefined } | undefined>();
        expectTypeOf(part.result?.output).toEqualTypeOf<{ ok: boolean } | undefined>();
      }
      if (isToolCallOf(part, arkTool)) expectTypeOf(part.toolName).toEqualTypeOf<'arkTool'>();
    }
  });

  it('needsApproval receives the typed input', () => {
    toolDefinition({
      name: 'refund',
      description: 'r',
      inputSchema: type({ amount: 'number' }),
      needsApproval: (input) => {
        expectTypeOf(input).toEqualTypeOf<{ amount: number }>();
        return input.amount > 100;
      },
    });
  });
});
