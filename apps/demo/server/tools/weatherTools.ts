import { getForecast, getWeather } from '../../shared/catalog.ts';
import { TODAY, addDays } from './demoData.ts';
import type { Latency } from './latency.ts';

/** Server implementations of the weather tools. */
export function weatherTools(slow: Latency) {
  return [
    getWeather.server(
      slow(({ city }) => {
        const sum = [...city].reduce((total, char) => total + char.charCodeAt(0), 0);
        const conditions = ['sunny', 'partly cloudy', 'overcast', 'light rain', 'windy', 'foggy', 'snow showers'];
        return { city, celsius: (sum % 36) - 6, conditions: conditions[sum % conditions.length] as string };
      }),
    ),
    getForecast.server(
      slow(({ city, days, units }) => {
        const base = [...city].reduce((total, char) => total + char.charCodeAt(0), 0);
        return {
          city,
          units,
          days: Array.from({ length: days }, (_, i) => {
            const highC = ((base + i * 7) % 30) - 2;
            const lowC = highC - 4 - ((base + i) % 6);
            const convert = (c: number) => (units === 'imperial' ? Math.round(c * 1.8 + 32) : c);
            return { date: addDays(TODAY, i + 1), high: convert(highC), low: convert(lowC), rainChance: ((base * (i + 3)) % 10) * 10 };
          }),
        };
      }),
    ),
  ] as const;
}
