import { estimateDelivery, getShippingRates, trackShipment } from '../../shared/catalog.ts';
import { hash, exposed, pick, round2, TODAY, addDays, productFor } from './demoData.ts';
import type { Latency } from './latency.ts';

const CITIES = ['Seattle, WA', 'Denver, CO', 'Memphis, TN', 'Louisville, KY', 'Newark, NJ', 'Chicago, IL'];

/** Server implementations of the shipping tools. */
export function shippingTools(slow: Latency) {
  return [
    trackShipment.server(
      slow(({ trackingNumber }) => {
        if (/\bBROKEN\b/i.test(trackingNumber)) throw exposed('Carrier API unavailable');
        const statuses = ['labelCreated', 'inTransit', 'inTransit', 'outForDelivery', 'delivered'] as const;
        const status = pick(statuses, trackingNumber);
        return {
          trackingNumber,
          carrier: pick(['UPS', 'FedEx', 'DHL', 'USPS'], trackingNumber, 'carrier'),
          status,
          lastLocation: pick(CITIES, trackingNumber, 'city'),
          estimatedDelivery: addDays(TODAY, status === 'delivered' ? -1 : hash(trackingNumber) % 5),
        };
      }),
    ),
    estimateDelivery.server(
      slow(({ postalCode, method, weightKg }) => {
        const days = { standard: 5, express: 2, overnight: 1 }[method];
        const base = { standard: 5.95, express: 14.95, overnight: 29.95 }[method];
        const extra = hash(postalCode) % 3;
        return {
          postalCode,
          method,
          earliest: addDays(TODAY, days),
          latest: addDays(TODAY, days + (method === 'overnight' ? 0 : extra)),
          cost: round2(base + Math.max(0, (weightKg ?? 1) - 1) * 1.5),
          currency: 'USD',
        };
      }),
    ),
    getShippingRates.server(
      slow(({ destinationCountry, items }) => {
        const weightKg = round2(items.reduce((sum, item) => sum + (productFor(item.productId).weightG * item.quantity) / 1000, 0));
        const far = hash(destinationCountry.toLowerCase()) % 3;
        return {
          destinationCountry,
          weightKg,
          quotes: [
            { carrier: 'USPS', service: 'Ground', days: 5 + far, price: round2(6 + weightKg * 1.2 + far * 4) },
            { carrier: 'UPS', service: 'Express', days: 2 + far, price: round2(15 + weightKg * 2.5 + far * 8) },
            { carrier: 'DHL', service: 'Worldwide', days: 3 + far, price: round2(19 + weightKg * 2 + far * 5) },
          ],
        };
      }),
    ),
  ] as const;
}
