import { z } from 'zod';
import { toolDefinition } from '@chatwire/core';
import { themeSchema } from './pageSchemas.ts';

/* The demo catalog: Customer account (server). */

export const fetchPreferences = toolDefinition({
  name: 'fetchPreferences',
  description: "The signed-in user's saved display preferences: theme, language and welcome banner.",
  inputSchema: z.object({}),
  outputSchema: z.object({
    theme: themeSchema,
    language: z.string(),
    banner: z.string(),
  }),
});

export const getCustomerProfile = toolDefinition({
  name: 'getCustomerProfile',
  description: "The customer's account profile: name, e-mail, membership tier, default address and member-since date.",
  lazy: true,
  inputSchema: z.object({
    fields: z
      .array(z.enum(['name', 'email', 'tier', 'address', 'memberSince', 'phone']))
      .optional()
      .describe('Only these fields. Defaults to all of them.'),
  }),
});

export const updateCustomerProfile = toolDefinition({
  name: 'updateCustomerProfile',
  description: "Updates account details. Only the fields given change; needs the customer's approval because it edits personal data.",
  lazy: true,
  needsApproval: true,
  inputSchema: z.object({
    changes: z
      .object({
        displayName: z.string().min(1).max(60).optional().describe('Name shown on the account and on receipts.'),
        phone: z.string().max(20).optional().describe('Phone number in international format, e.g. "+44 20 7946 0958".'),
        marketingOptIn: z.boolean().optional().describe('Whether the customer wants promotional e-mails.'),
      })
      .describe('The fields to change.'),
  }),
});

export const listPaymentMethods = toolDefinition({
  name: 'listPaymentMethods',
  description: 'Saved payment methods on the account, with the card brand, last four digits and expiry. Never returns full card numbers.',
  lazy: true,
  inputSchema: z.object({}),
});

export const getLoyaltyPoints = toolDefinition({
  name: 'getLoyaltyPoints',
  description: 'Loyalty point balance, tier and the points that expire soon.',
  lazy: true,
  inputSchema: z.object({
    includeHistory: z.boolean().optional().describe('Also list the last few point transactions.'),
  }),
});
