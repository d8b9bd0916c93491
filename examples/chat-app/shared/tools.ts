import { toolDefinition } from '@chatwire/core';
import { z } from 'zod';

/**
 * The app's tools, defined once and shared by both sides: the server implements `getWeather`,
 * `getForecast` and `refundOrder`, the page implements `setTheme`.
 */

/** A server tool. */
export const getWeather = toolDefinition({
  name: 'getWeather',
  description: 'Current weather for a city: temperature in Celsius and the sky.',
  inputSchema: z.object({ city: z.string().min(1).max(80).describe('City name, e.g. "Paris".') }),
  outputSchema: z.object({ city: z.string(), celsius: z.number(), sky: z.string() }),
});

/**
 * A lazy tool: kept out of the prompt until the model asks for it by name (the discovery step),
 * then sent with every request of the conversation.
 */
export const getForecast = toolDefinition({
  name: 'getForecast',
  description: 'Forecast for the next days in a city: daily high and low in Celsius.',
  lazy: true,
  inputSchema: z.object({
    city: z.string().min(1).max(80).describe('City name, e.g. "Paris".'),
    days: z.number().int().min(1).max(7).optional().describe('How many days. Defaults to 3.'),
  }),
  outputSchema: z.object({ city: z.string(), days: z.array(z.object({ date: z.string(), high: z.number(), low: z.number() })) }),
});

const theme = z.enum(['light', 'dark']);

/** The themes `setTheme` accepts. */
export type Theme = z.infer<typeof theme>;

/** A browser tool: it changes this page. */
export const setTheme = toolDefinition({
  name: 'setTheme',
  description: 'Switches this page between the light and dark themes.',
  inputSchema: z.object({ theme: theme.describe('The theme to switch to.') }),
  outputSchema: z.object({ theme }),
});

/** A server tool that runs only after the user approves the call. */
export const refundOrder = toolDefinition({
  name: 'refundOrder',
  description: 'Refunds an order to the original payment method.',
  inputSchema: z.object({
    orderId: z
      .string()
      .regex(/^ORD-\d+$/)
      .describe('The order id, e.g. "ORD-1234".'),
  }),
  outputSchema: z.object({ orderId: z.string(), refunded: z.boolean() }),
  needsApproval: true,
});
