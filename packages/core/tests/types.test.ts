import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { isToolCallOf, toolDefinition, type ChatMessage, type ToolCallPartOf } from '@chatwire/core';

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
