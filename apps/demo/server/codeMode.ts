import type { AnyTool } from '@chatwire/core';
import { createCodeMode, type CodeMode } from '@chatwire/code-mode';

/**
 * The demo's Code Mode APIs: read-only server tools (nothing that needs an approval), which the
 * model's TypeScript calls as `external_<name>`. Two are eager (their TypeScript stubs are in the
 * system prompt); the rest are listed by name under "Discoverable APIs" until `discover_tools`
 * returns their stubs. `getWeather` is eager as a chat tool but lazy here, so "use code to compare
 * the weather in Paris and Tokyo" shows discovery first.
 */
export const CODE_MODE_APIS: Readonly<Record<string, 'eager' | 'lazy'>> = {
  searchProducts: 'eager',
  getExchangeRates: 'eager',
  getWeather: 'lazy',
  getForecast: 'lazy',
  getProductDetails: 'lazy',
  checkInventory: 'lazy',
  getProductReviews: 'lazy',
  getShippingRates: 'lazy',
  estimateDelivery: 'lazy',
  convertCurrency: 'lazy',
  getTopProducts: 'lazy',
  getSalesReport: 'lazy',
};

/** Code Mode over the demo's server tools (their implementations, as the chat runs them). */
export function createDemoCodeMode(serverTools: readonly AnyTool[]): CodeMode {
  const apis = serverTools.flatMap((tool) => {
    const mode = CODE_MODE_APIS[tool.name];
    // A copy with Code Mode's own laziness: the chat tool keeps its flag.
    return mode ? [{ ...tool, lazy: mode === 'lazy' }] : [];
  });
  return createCodeMode({ tools: apis, lazyToolsConfig: { includeDescription: 'first-sentence' } });
}
