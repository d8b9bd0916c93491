import { convertCurrency, getExchangeRates } from '../../shared/catalog.ts';
import { exposed, round2, TODAY } from './demoData.ts';
import type { Latency } from './latency.ts';

/** Units of one currency per US dollar (fixed demo rates). */
const USD_RATES: Readonly<Record<string, number>> = {
  USD: 1,
  EUR: 0.92,
  GBP: 0.79,
  JPY: 151.4,
  CHF: 0.88,
  CAD: 1.37,
  AUD: 1.52,
  SEK: 10.6,
};

function rateOf(code: string): number {
  const rate = USD_RATES[code.toUpperCase()];
  if (rate === undefined) {
    throw exposed(`Unsupported currency '${code}'. Supported: ${Object.keys(USD_RATES).join(', ')}.`);
  }
  return rate;
}

/** Server implementations of the currency tools. */
export function currencyTools(slow: Latency) {
  return [
    convertCurrency.server(
      slow(({ amount, from, to }) => {
        const rate = rateOf(to) / rateOf(from);
        return {
          amount,
          from: from.toUpperCase(),
          to: to.toUpperCase(),
          rate: Math.round(rate * 10000) / 10000,
          converted: round2(amount * rate),
        };
      }),
    ),
    getExchangeRates.server(
      slow(({ base, symbols }) => {
        const baseRate = rateOf(base);
        const targets =
          symbols && symbols.length > 0
            ? symbols.map((code) => code.toUpperCase())
            : Object.keys(USD_RATES).filter((code) => code !== base.toUpperCase());
        return {
          base: base.toUpperCase(),
          date: TODAY,
          rates: Object.fromEntries(targets.map((code) => [code, Math.round((rateOf(code) / baseRate) * 10000) / 10000])),
        };
      }),
    ),
  ] as const;
}
