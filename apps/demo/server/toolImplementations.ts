import { withLatency } from './tools/latency.ts';
import { weatherTools } from './tools/weatherTools.ts';
import { productTools } from './tools/productTools.ts';
import { orderTools } from './tools/orderTools.ts';
import { shippingTools } from './tools/shippingTools.ts';
import { accountTools } from './tools/accountTools.ts';
import { calendarTools } from './tools/calendarTools.ts';
import { emailTools } from './tools/emailTools.ts';
import { fileTools } from './tools/fileTools.ts';
import { productivityTools } from './tools/productivityTools.ts';
import { currencyTools } from './tools/currencyTools.ts';
import { analyticsTools } from './tools/analyticsTools.ts';

/**
 * Server implementations of the demo catalog, one file per domain under `tools/` (weather,
 * products, orders, shipping, account, calendar, e-mail, files, notes and tasks, currency,
 * analytics), sharing the fake data of `tools/demoData.ts`. Everything is fake but deterministic:
 * the same input always gives the same output (values are derived from the input's characters),
 * nothing touches the network, and results stay small. One deliberate failure: `trackShipment` with
 * the tracking number `BROKEN` throws, so the error path can be demoed.
 */

/** Options of {@link createServerTools}. */
export interface ServerToolsOptions {
  /** Simulated latency of every call, in milliseconds. Defaults to 0 (no pause). */
  readonly delayMs?: number;
}

/** Every server definition of the catalog with its implementation. */
export function createServerTools(options: ServerToolsOptions = {}) {
  const slow = withLatency(Math.max(0, options.delayMs ?? 0));
  return [
    ...weatherTools(slow),
    ...productTools(slow),
    ...orderTools(slow),
    ...shippingTools(slow),
    ...accountTools(slow),
    ...calendarTools(slow),
    ...emailTools(slow),
    ...fileTools(slow),
    ...productivityTools(slow),
    ...currencyTools(slow),
    ...analyticsTools(slow),
  ] as const;
}

/** The server tools with no simulated latency. */
export const serverTools = createServerTools();
