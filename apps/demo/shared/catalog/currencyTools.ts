import { z } from 'zod';
import { toolDefinition } from '@chatwire/core';
import { supportedCurrency, currencyCode } from './fields.ts';

/* The demo catalog: Currency (server). */

export const convertCurrency = toolDefinition({
  name: 'convertCurrency',
  description:
    "Converts an amount between currencies at today's mid-market rate. Use it to convert prices for customers abroad; supports USD, EUR, GBP, JPY, CHF, CAD, AUD and SEK.",
  lazy: true,
  inputSchema: z.object({
    amount: z.number().min(0).max(1_000_000_000).describe('Amount in the source currency.'),
    from: currencyCode.describe('Source currency, ISO 4217 code such as "USD".'),
    to: currencyCode.describe('Target currency, ISO 4217 code such as "EUR".'),
  }),
  outputSchema: z.object({
    amount: z.number(),
    from: z.string(),
    to: z.string(),
    rate: z.number(),
    converted: z.number(),
  }),
});

export const getExchangeRates = toolDefinition({
  name: 'getExchangeRates',
  description: "Today's exchange rates from one base currency to several others.",
  lazy: true,
  inputSchema: z.object({
    base: currencyCode.default('USD').describe('Base currency. Defaults to USD.'),
    symbols: z.array(supportedCurrency).max(8).optional().describe('Target currencies. Defaults to all supported ones.'),
  }),
});
