import { z } from 'zod';

/* Field schemas several domains of the demo's catalog share. */

/** An order id field. */
export const orderId = z.string().min(1).max(40).describe('Order id as shown in the order history, e.g. "ORD-1234".');
/** A product id field. */
export const productId = z.string().min(1).max(40).describe('Product id from searchProducts, e.g. "P-1042".');
/** A calendar date field (ISO). */
export const isoDate = z.iso.date().describe('Calendar date in ISO format, YYYY-MM-DD.');
/** A time-of-day field (24-hour HH:MM). */
export const clockTime = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/)
  .describe('Local time of day, 24-hour HH:MM.');
/** The currencies the demo converts between. */
export const supportedCurrency = z.enum(['USD', 'EUR', 'GBP', 'JPY', 'CHF', 'CAD', 'AUD', 'SEK']);
/** An ISO 4217 currency code field. */
export const currencyCode = z
  .string()
  .regex(/^[A-Za-z]{3}$/)
  .describe('ISO 4217 currency code such as "USD", "EUR" or "JPY".');
