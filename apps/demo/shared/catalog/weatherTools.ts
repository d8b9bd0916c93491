import { z } from 'zod';
import { toolDefinition } from '@chatwire/core';

/* The demo catalog: Weather (server). */

export const getWeather = toolDefinition({
  name: 'getWeather',
  description: 'Current weather conditions for a city: temperature in Celsius and a short description of the sky.',
  inputSchema: z.object({
    city: z.string().min(1).max(80).describe('City name, optionally with a country, e.g. "Lisbon" or "Portland, OR".'),
  }),
  outputSchema: z.object({
    city: z.string(),
    celsius: z.number(),
    conditions: z.string(),
  }),
});

export const getForecast = toolDefinition({
  name: 'getForecast',
  description:
    'Multi-day forecast for a city with daily highs, lows and chance of rain. Use getWeather instead when only the current conditions are needed.',
  lazy: true,
  inputSchema: z.object({
    city: z.string().min(1).max(80).describe('City name, optionally with a country.'),
    days: z.number().int().min(1).max(7).describe('How many days ahead, 1 to 7.'),
    units: z.enum(['metric', 'imperial']).default('metric').describe('Temperature units. Defaults to metric (Celsius).'),
  }),
  outputSchema: z.object({
    city: z.string(),
    units: z.enum(['metric', 'imperial']),
    days: z.array(z.object({ date: z.string(), high: z.number(), low: z.number(), rainChance: z.number() })),
  }),
});
