import { z } from 'zod';
import { toolDefinition } from '@chatwire/core';
import { productId } from './fields.ts';

/* The demo catalog: Shipping (server). */

export const trackShipment = toolDefinition({
  name: 'trackShipment',
  description:
    'Live tracking for a parcel: carrier, current status, last scan location and the estimated delivery date. Takes the tracking number printed on the order, not the order id.',
  lazy: true,
  inputSchema: z.object({
    trackingNumber: z.string().min(1).max(40).describe('Carrier tracking number, e.g. "1Z999AA10123456784".'),
  }),
  outputSchema: z.object({
    trackingNumber: z.string(),
    carrier: z.string(),
    status: z.enum(['labelCreated', 'inTransit', 'outForDelivery', 'delivered']),
    lastLocation: z.string(),
    estimatedDelivery: z.string(),
  }),
});

export const estimateDelivery = toolDefinition({
  name: 'estimateDelivery',
  description: 'Estimated delivery window and cost for shipping to a postal code with a given method.',
  lazy: true,
  inputSchema: z.object({
    postalCode: z.string().min(1).max(12).describe('Destination postal code.'),
    method: z.enum(['standard', 'express', 'overnight']).describe('Shipping speed.'),
    weightKg: z.number().min(0.1).max(70).optional().describe('Parcel weight in kilograms. Defaults to 1.'),
  }),
});

export const getShippingRates = toolDefinition({
  name: 'getShippingRates',
  description:
    'Quotes every available carrier for a basket of items shipped to a country. Useful before checkout to pick the cheapest or fastest option.',
  lazy: true,
  inputSchema: z.object({
    destinationCountry: z.string().min(2).max(56).describe('Country name or ISO 3166 code.'),
    items: z
      .array(
        z.object({
          productId,
          quantity: z.number().int().min(1).max(20).describe('Units of this product, 1 to 20.'),
        }),
      )
      .min(1)
      .max(10)
      .describe('The basket: one entry per product.'),
  }),
});
