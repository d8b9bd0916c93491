// Shared by the server and the browser.
import { toolDefinition } from '@chatwire/core';
import { z } from 'zod';

/** A server tool, lazy: kept out of the prompt until the model discovers it. */
export const getWeather = toolDefinition({
  name: 'getWeather',
  description: 'Current weather for a city.',
  inputSchema: z.object({ city: z.string() }),
  outputSchema: z.object({ city: z.string(), celsius: z.number() }),
  lazy: true, // kept out of the prompt until the model discovers it
});

/** A browser tool: it changes the page, once the user approves. */
export const setTheme = toolDefinition({
  name: 'setTheme',
  description: 'Switches the page between light and dark.',
  inputSchema: z.object({ theme: z.enum(['light', 'dark']) }),
  needsApproval: true, // asks the user first
});
