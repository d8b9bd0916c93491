import { vi } from 'vitest';
import { z } from 'zod';
import { toolDefinition } from '@chatwire/core';

/** Server tools for the provider tests: two eager, two lazy. Implementations are spies. */
export function providerTestTools() {
  const weather = vi.fn(async ({ city }: { city: string }) => ({ city, temperature: 18 }));
  const search = vi.fn(async ({ query }: { query: string }) => ({ query, items: ['Compact umbrella'] }));
  const track = vi.fn(async ({ trackingNumber }: { trackingNumber: string }) => ({ trackingNumber, status: 'in transit' }));
  const orders = vi.fn(async () => ({ orders: ['ORD-1'] }));
  const tools = [
    toolDefinition({ name: 'getWeather', description: 'Current weather for a city.', inputSchema: z.object({ city: z.string() }) }).server(
      weather,
    ),
    toolDefinition({
      name: 'searchProducts',
      description: 'Search the product catalog.',
      inputSchema: z.object({ query: z.string() }),
    }).server(search),
    toolDefinition({
      name: 'trackShipment',
      description: 'Track a shipment by its tracking number.',
      inputSchema: z.object({ trackingNumber: z.string().describe('The carrier tracking number, e.g. TRK-42.') }),
      lazy: true,
    }).server(track),
    toolDefinition({
      name: 'listOrders',
      description: 'List the customer orders, newest first.',
      inputSchema: z.object({}),
      lazy: true,
    }).server(orders),
  ];
  return { tools, spies: { weather, search, track, orders } };
}

export const EAGER = ['getWeather', 'searchProducts'];
