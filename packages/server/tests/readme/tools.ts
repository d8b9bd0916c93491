// src/tools.ts: shared by the server and the browser
import { toolDefinition } from '@chatwire/core';
import { z } from 'zod';

export const getWeather = toolDefinition({
  name: 'getWeather',
  description: 'Current weather for a city.',
  inputSchema: z.object({ city: z.string() }),
  outputSchema: z.object({ city: z.string(), celsius: z.number() }),
  lazy: true, // kept out of the prompt until the model discovers it
});
