import { z } from 'zod';
import { toolDefinition } from '@chatwire/core';
import { orderId, isoDate } from './fields.ts';

/* The demo catalog: Orders (server). */

const orderStatus = z.enum(['processing', 'shipped', 'delivered', 'cancelled', 'refunded']);

export const listOrders = toolDefinition({
  name: 'listOrders',
  description: "The customer's recent orders, newest first, with status and total. Filter by status or date to narrow the list.",
  lazy: true,
  inputSchema: z.object({
    status: orderStatus.optional().describe('Only orders in this status.'),
    since: isoDate.optional().describe('Only orders placed on or after this date (YYYY-MM-DD).'),
    limit: z.number().int().min(1).max(6).optional().describe('How many orders, 1 to 6. Defaults to 4.'),
  }),
});

export const getOrder = toolDefinition({
  name: 'getOrder',
  description: 'One order with its items, totals, payment method, shipping address and tracking number.',
  lazy: true,
  inputSchema: z.object({ orderId }),
  outputSchema: z.object({
    orderId: z.string(),
    status: orderStatus,
    placedOn: z.string(),
    items: z.array(z.object({ productId: z.string(), name: z.string(), quantity: z.number().int(), price: z.number() })),
    total: z.number(),
    currency: z.string(),
    trackingNumber: z.string().nullable(),
  }),
});

export const cancelOrder = toolDefinition({
  name: 'cancelOrder',
  description:
    'Cancels an order that has not shipped yet and releases the payment hold. Real orders need the customer\'s approval; test orders (ids starting with "TEST-") are cancelled at once.',
  lazy: true,
  needsApproval: ({ orderId }) => !orderId.startsWith('TEST-'),
  inputSchema: z.object({
    orderId,
    reason: z
      .enum(['changedMind', 'foundCheaper', 'orderedByMistake', 'deliveryTooSlow', 'other'])
      .optional()
      .describe("Why the customer cancels, for the merchant's records."),
  }),
});

export const refundOrder = toolDefinition({
  name: 'refundOrder',
  description:
    "Refunds a delivered order to the original payment method. Always requires the customer's approval; the money arrives in 3 to 5 business days.",
  needsApproval: true,
  inputSchema: z.object({
    orderId,
    reason: z.string().max(200).optional().describe("Short reason for the refund in the customer's words."),
  }),
  outputSchema: z.object({
    orderId: z.string(),
    refundId: z.string(),
    amount: z.number(),
    currency: z.string(),
    status: z.literal('pending'),
    expectedInDays: z.string(),
  }),
});

export const updateShippingAddress = toolDefinition({
  name: 'updateShippingAddress',
  description: "Changes the delivery address of an order that has not shipped yet. Needs the customer's approval.",
  lazy: true,
  needsApproval: true,
  inputSchema: z.object({
    orderId,
    address: z
      .object({
        line1: z.string().min(1).max(100).describe('Street and house number.'),
        line2: z.string().max(100).optional().describe('Apartment, suite or floor.'),
        city: z.string().min(1).max(60),
        postalCode: z.string().min(1).max(12),
        country: z.string().min(2).max(56).describe('Country name or ISO 3166 code.'),
      })
      .describe('The new delivery address.'),
  }),
});
