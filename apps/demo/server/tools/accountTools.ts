import { fetchPreferences, getCustomerProfile, getLoyaltyPoints, listPaymentMethods, updateCustomerProfile } from '../../shared/catalog.ts';
import { TODAY, addDays } from './demoData.ts';
import type { Latency } from './latency.ts';

/** Server implementations of the customer account tools. */
export function accountTools(slow: Latency) {
  return [
    fetchPreferences.server(slow(() => ({ theme: 'dark' as const, language: 'en', banner: 'Welcome back!' }))),
    getCustomerProfile.server(
      slow(({ fields }) => {
        const profile: Record<string, string> = {
          name: 'Alex Morgan',
          email: 'alex.morgan@example.com',
          tier: 'Plus',
          address: '18 Harbor Lane, Portland, OR 97205, US',
          memberSince: '2021-04-09',
          phone: '+1 503 555 0142',
        };
        if (!fields || fields.length === 0) return profile;
        return Object.fromEntries(fields.map((field) => [field, profile[field]]));
      }),
    ),
    updateCustomerProfile.server(
      slow(({ changes }) => ({
        updated: Object.keys(changes),
        profile: {
          name: changes.displayName ?? 'Alex Morgan',
          phone: changes.phone ?? '+1 503 555 0142',
          marketingOptIn: changes.marketingOptIn ?? false,
        },
      })),
    ),
    listPaymentMethods.server(
      slow(() => ({
        methods: [
          { id: 'PM-1', brand: 'Visa', last4: '4242', expires: '08/28', default: true },
          { id: 'PM-2', brand: 'Mastercard', last4: '5100', expires: '02/27', default: false },
          { id: 'PM-3', brand: 'PayPal', account: 'a***n@example.com', default: false },
        ],
      })),
    ),
    getLoyaltyPoints.server(
      slow(({ includeHistory }) => ({
        balance: 4820,
        tier: 'Plus',
        expiringSoon: { points: 300, on: addDays(TODAY, 41) },
        ...(includeHistory
          ? {
              history: [
                { date: addDays(TODAY, -3), points: 199, reason: 'Order ORD-1233' },
                { date: addDays(TODAY, -17), points: -500, reason: 'Redeemed voucher' },
                { date: addDays(TODAY, -30), points: 89, reason: 'Order ORD-1219' },
              ],
            }
          : {}),
      })),
    ),
  ] as const;
}
