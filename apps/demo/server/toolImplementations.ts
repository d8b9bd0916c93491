import { setTimeout as sleep } from 'node:timers/promises';
import type { ToolContext, ToolExecute } from '@chatwire/core';
import {
  calculateFinancing,
  cancelCalendarEvent,
  cancelOrder,
  checkInventory,
  compareProducts,
  completeTask,
  convertCurrency,
  createCalendarEvent,
  createNote,
  createTask,
  draftEmail,
  estimateDelivery,
  fetchPreferences,
  findFreeSlot,
  generateReport,
  getCustomerProfile,
  getEmailThread,
  getExchangeRates,
  getForecast,
  getLoyaltyPoints,
  getOrder,
  getProductDetails,
  getProductReviews,
  getRecommendations,
  getSalesReport,
  getShippingRates,
  getTopProducts,
  getTrafficStats,
  getWeather,
  listCalendarEvents,
  listOrders,
  listPaymentMethods,
  listTasks,
  readFile,
  refundOrder,
  searchEmails,
  searchFiles,
  searchNotes,
  searchProducts,
  sendEmail,
  shareFile,
  trackShipment,
  updateCustomerProfile,
  updateShippingAddress,
} from '../shared/catalog.ts';

/**
 * Server implementations of the demo catalog. Everything is fake but deterministic: the same input
 * always gives the same output (values are derived from the input's characters), nothing touches
 * the network, and results stay small. One deliberate failure: `trackShipment` with the tracking
 * number `BROKEN` throws, so the error path can be demoed.
 */

// ---------------------------------------------------------------------------------------------
// Deterministic helpers

/** A small stable hash of a string (FNV-1a, 32-bit, unsigned). */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** An error whose message the model and the user may read (`expose: true`); others reach them as "failed". */
const exposed = (message: string): Error => Object.assign(new Error(message), { expose: true });

const pick = <T>(items: readonly T[], seed: string, salt = ''): T => items[hash(seed + salt) % items.length] as T;
const round2 = (value: number): number => Math.round(value * 100) / 100;

/** The demo's "today": fixed, so outputs never depend on the clock. */
const TODAY = '2026-11-20';

function addDays(isoDate: string, days: number): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

const toMinutes = (time: string): number => {
  const [h, m] = time.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
};
const toClock = (minutes: number): string =>
  `${String(Math.floor(minutes / 60) % 24).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

// ---------------------------------------------------------------------------------------------
// Fake data

interface Product {
  readonly id: string;
  readonly name: string;
  readonly category: string;
  readonly price: number;
  readonly rating: number;
  readonly warrantyMonths: number;
  readonly weightG: number;
}

const PRODUCTS: readonly Product[] = [
  { id: 'P-1001', name: 'Aurora Noise-Cancelling Headphones', category: 'audio', price: 199, rating: 4.6, warrantyMonths: 24, weightG: 250 },
  { id: 'P-1002', name: 'Pulse Wireless Earbuds', category: 'audio', price: 89, rating: 4.2, warrantyMonths: 12, weightG: 48 },
  { id: 'P-1003', name: 'Summit 27-inch 4K Monitor', category: 'displays', price: 349, rating: 4.5, warrantyMonths: 36, weightG: 5200 },
  { id: 'P-1004', name: 'Drift Mechanical Keyboard', category: 'accessories', price: 129, rating: 4.7, warrantyMonths: 24, weightG: 900 },
  { id: 'P-1005', name: 'Glide Ergonomic Mouse', category: 'accessories', price: 49, rating: 4.3, warrantyMonths: 12, weightG: 95 },
  { id: 'P-1006', name: 'Nimbus Laptop Stand', category: 'office', price: 39, rating: 4.4, warrantyMonths: 12, weightG: 1100 },
  { id: 'P-1007', name: 'Volt 65W USB-C Charger', category: 'power', price: 45, rating: 4.1, warrantyMonths: 12, weightG: 120 },
  { id: 'P-1008', name: 'Beacon Smart Desk Lamp', category: 'office', price: 59, rating: 4.0, warrantyMonths: 24, weightG: 800 },
  { id: 'P-1009', name: 'Harbor Travel Backpack', category: 'bags', price: 119, rating: 4.8, warrantyMonths: 60, weightG: 1300 },
  { id: 'P-1010', name: 'Echo Bluetooth Speaker', category: 'audio', price: 79, rating: 4.2, warrantyMonths: 12, weightG: 540 },
  { id: 'P-1011', name: 'Canvas 10-inch E-Reader', category: 'tablets', price: 139, rating: 4.5, warrantyMonths: 12, weightG: 210 },
  { id: 'P-1012', name: 'Atlas Fitness Watch', category: 'wearables', price: 229, rating: 4.3, warrantyMonths: 24, weightG: 42 },
];

/** The product with this id, or a stable stand-in (keeping the requested id) for unknown ids. */
function productFor(id: string): Product {
  return PRODUCTS.find((product) => product.id.toLowerCase() === id.trim().toLowerCase()) ?? { ...pick(PRODUCTS, id), id };
}

const ORDER_STATUSES = ['processing', 'shipped', 'delivered', 'delivered', 'shipped'] as const;

function orderFor(orderId: string) {
  const status = pick(ORDER_STATUSES, orderId);
  const first = pick(PRODUCTS, orderId, 'a');
  const second = pick(PRODUCTS, orderId, 'b');
  const items = [
    { productId: first.id, name: first.name, quantity: 1 + (hash(orderId) % 2), price: first.price },
    ...(second.id !== first.id && hash(orderId) % 3 === 0 ? [{ productId: second.id, name: second.name, quantity: 1, price: second.price }] : []),
  ];
  return {
    orderId,
    status,
    placedOn: addDays(TODAY, -(2 + (hash(orderId) % 20))),
    items,
    total: round2(items.reduce((sum, item) => sum + item.price * item.quantity, 0)),
    currency: 'USD',
    trackingNumber: status === 'processing' ? null : `1Z${String(hash(orderId)).padStart(10, '0').slice(0, 10)}`,
  };
}

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

const CITIES = ['Seattle, WA', 'Denver, CO', 'Memphis, TN', 'Louisville, KY', 'Newark, NJ', 'Chicago, IL'];
const PEOPLE = ['Maya Chen', 'Liam Novak', 'Priya Raman', 'Jonas Berg', 'Ana Souza', 'Tom Okafor'];
const emailOf = (person: string): string => `${person.toLowerCase().replace(/\s+/g, '.')}@example.com`;

const FILES = [
  { id: 'FILE-201', name: 'Q3 Sales Review.pptx', type: 'presentation', owner: 'Maya Chen' },
  { id: 'FILE-202', name: 'Holiday Campaign Plan.docx', type: 'document', owner: 'Priya Raman' },
  { id: 'FILE-203', name: 'Inventory Forecast 2027.xlsx', type: 'spreadsheet', owner: 'Jonas Berg' },
  { id: 'FILE-204', name: 'Returns Policy.pdf', type: 'pdf', owner: 'Ana Souza' },
  { id: 'FILE-205', name: 'Warehouse Floor Plan.png', type: 'image', owner: 'Tom Okafor' },
  { id: 'FILE-206', name: 'Supplier Contacts.xlsx', type: 'spreadsheet', owner: 'Liam Novak' },
] as const;

const FILE_TEXT =
  'Returns policy (summary). Customers may return most items within 30 days of delivery for a full refund to the ' +
  'original payment method. Items must be unused and in their original packaging. Opened headphones and earbuds ' +
  'can be returned only if faulty. Refunds are issued within 3 to 5 business days after the return is received. ' +
  'Free return shipping applies to members of the Plus tier; everyone else pays a flat $5.95 label fee.';

const CALENDAR_TITLES = ['Stand-up', 'Design review', 'Lunch with Priya', '1:1 with Maya', 'Supplier call', 'Focus time'];

// ---------------------------------------------------------------------------------------------
// Latency


/** Options of {@link createServerTools}. */
export interface ServerToolsOptions {
  /** Simulated latency of every call, in milliseconds. Defaults to 0 (no pause). */
  readonly delayMs?: number;
}

/** Every server definition of the catalog with its implementation. */
export function createServerTools(options: ServerToolsOptions = {}) {
  const delayMs = Math.max(0, options.delayMs ?? 0);
  const slow =
    <Input, Output>(execute: (input: Input, context: ToolContext) => Output | Promise<Output>): ToolExecute<Input, Output> =>
    delayMs === 0
      ? execute
      : async (input, context) => {
          await sleep(delayMs, undefined, { signal: context.signal });
          return execute(input, context);
        };

  return [
    // ----- Weather
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

    // ----- Products
    searchProducts.server(
      slow(({ query, maxResults }) => {
        const terms = query.toLowerCase().match(/[a-z0-9]+/g) ?? [];
        const scored = PRODUCTS.map((product) => {
          const haystack = `${product.name} ${product.category}`.toLowerCase();
          return { product, score: terms.filter((term) => term.length > 1 && haystack.includes(term.replace(/s$/, ''))).length };
        });
        const matches = scored.filter((entry) => entry.score > 0).sort((a, b) => b.score - a.score);
        // Nothing matched: suggest popular products instead, in a stable order for this query.
        const ranked = matches.length > 0 ? matches.map((entry) => entry.product) : [...PRODUCTS].sort((a, b) => hash(query + a.id) - hash(query + b.id));
        const results = ranked.slice(0, maxResults ?? 3).map((product) => ({
          id: product.id,
          name: product.name,
          price: product.price,
          currency: 'USD',
          inStock: hash(product.id + query) % 5 !== 0,
        }));
        return { query, total: matches.length, results };
      }),
    ),
    getProductDetails.server(
      slow(({ productId, includeSpecs, locale }) => {
        const product = productFor(productId);
        return {
          id: product.id,
          name: product.name,
          category: product.category,
          price: product.price,
          currency: locale === 'de-DE' || locale === 'fr-FR' ? 'EUR' : locale === 'en-GB' ? 'GBP' : locale === 'ja-JP' ? 'JPY' : 'USD',
          rating: product.rating,
          reviewCount: 40 + (hash(product.id) % 900),
          variants: pick([['black', 'silver'], ['graphite'], ['black', 'white', 'sand']], product.id),
          ...(includeSpecs
            ? { specs: { weightGrams: product.weightG, warrantyMonths: product.warrantyMonths, connectivity: pick(['USB-C', 'Bluetooth 5.3', 'Wi-Fi 6'], product.id) } }
            : {}),
        };
      }),
    ),
    compareProducts.server(
      slow(({ productIds, attributes }) => {
        const wanted = attributes && attributes.length > 0 ? [...new Set(attributes)] : ['price', 'rating', 'warranty'];
        const products = productIds.map((id) => {
          const product = productFor(id);
          const row: Record<string, string | number> = { id: product.id, name: product.name.split(' ').slice(0, 2).join(' ') };
          for (const attribute of wanted) {
            if (attribute === 'price') row['price'] = product.price;
            if (attribute === 'rating') row['rating'] = product.rating;
            if (attribute === 'warranty') row['warranty'] = `${product.warrantyMonths} months`;
            if (attribute === 'weight') row['weight'] = `${product.weightG} g`;
            if (attribute === 'battery') row['battery'] = `${8 + (hash(product.id) % 40)} h`;
            if (attribute === 'dimensions') row['dimensions'] = `${10 + (hash(product.id) % 30)} cm`;
          }
          return row;
        });
        const cheapest = productIds.map(productFor).reduce((a, b) => (b.price < a.price ? b : a));
        return { attributes: wanted, products, cheapest: cheapest.id };
      }),
    ),
    checkInventory.server(
      slow(({ productId, postalCode, radiusKm }) => {
        const online = hash(productId) % 140;
        return {
          productId,
          online: { available: online > 0, units: online },
          ...(postalCode
            ? {
                stores: [0, 1].map((i) => ({
                  store: `${pick(['Downtown', 'Riverside', 'Northgate', 'Mall Plaza'], postalCode, String(i))} store`,
                  distanceKm: Math.min(radiusKm ?? 25, 2 + ((hash(postalCode) >> (i * 4)) % 20)),
                  units: (hash(productId + postalCode + i) % 9),
                })),
              }
            : {}),
        };
      }),
    ),
    calculateFinancing.server(
      slow(({ productId, months, downPayment }) => {
        const product = productFor(productId);
        const principal = Math.max(0, product.price - (downPayment ?? 0));
        const apr = months <= 12 ? 0 : 9.9;
        const monthlyRate = apr / 100 / 12;
        const monthly = monthlyRate === 0 ? principal / months : (principal * monthlyRate) / (1 - (1 + monthlyRate) ** -months);
        return {
          productId: product.id,
          price: product.price,
          months,
          apr,
          monthlyPayment: round2(monthly),
          totalCost: round2(monthly * months + (downPayment ?? 0)),
          currency: 'USD',
        };
      }),
    ),
    getProductReviews.server(
      slow(({ productId, sort, limit }) => {
        const product = productFor(productId);
        const excerpts = [
          'Does exactly what it promises; setup took two minutes.',
          'Great build quality, but the manual is thin.',
          'Battery life is better than advertised.',
          'Returned it: too bulky for my desk.',
          'Fantastic value for the price.',
        ];
        const reviews = Array.from({ length: limit ?? 3 }, (_, i) => {
          const stars = 1 + (hash(product.id + i) % 5);
          return { author: pick(PEOPLE, product.id, String(i)).split(' ')[0] as string, stars, excerpt: excerpts[hash(product.id + i) % excerpts.length] as string };
        });
        if (sort === 'lowestRating') reviews.sort((a, b) => a.stars - b.stars);
        if (sort === 'highestRating') reviews.sort((a, b) => b.stars - a.stars);
        return { productId: product.id, averageRating: product.rating, reviews };
      }),
    ),
    getRecommendations.server(
      slow(({ basedOnProductId, budget, count }) => {
        const anchor = basedOnProductId ? productFor(basedOnProductId) : undefined;
        const candidates = PRODUCTS.filter((product) => product.id !== anchor?.id && product.price <= (budget ?? Infinity));
        const ranked = [...candidates].sort((a, b) => {
          const sameA = anchor && a.category === anchor.category ? 0 : 1;
          const sameB = anchor && b.category === anchor.category ? 0 : 1;
          return sameA - sameB || b.rating - a.rating;
        });
        return {
          basedOn: anchor?.id ?? 'recent orders',
          recommendations: ranked.slice(0, count ?? 3).map((product) => ({ id: product.id, name: product.name, price: product.price })),
        };
      }),
    ),

    // ----- Orders
    listOrders.server(
      slow(({ status, since, limit }) => {
        const orders = Array.from({ length: 12 }, (_, i) => orderFor(`ORD-${1240 - i * 7}`))
          .filter((order) => !status || order.status === status)
          .filter((order) => !since || order.placedOn >= since)
          .slice(0, limit ?? 4)
          .map(({ orderId, status, placedOn, total }) => ({ orderId, status, placedOn, total }));
        return { count: orders.length, currency: 'USD', orders };
      }),
    ),
    getOrder.server(slow(({ orderId }) => orderFor(orderId))),
    cancelOrder.server(
      slow(({ orderId, reason }) => {
        const order = orderFor(orderId);
        return { orderId, cancelled: true, reason: reason ?? 'other', releasedAmount: order.total, currency: order.currency, test: orderId.startsWith('TEST-') };
      }),
    ),
    refundOrder.server(
      slow(({ orderId }) => {
        const order = orderFor(orderId);
        return {
          orderId,
          refundId: `RF-${1000 + (hash(orderId) % 9000)}`,
          amount: order.total,
          currency: order.currency,
          status: 'pending' as const,
          expectedInDays: '3-5 business days',
        };
      }),
    ),
    updateShippingAddress.server(
      slow(({ orderId, address }) => ({
        orderId,
        updated: true,
        shipTo: [address.line1, address.line2, `${address.postalCode} ${address.city}`, address.country].filter(Boolean).join(', '),
      })),
    ),

    // ----- Shipping
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

    // ----- Customer account
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
      slow(({ changes }) => ({ updated: Object.keys(changes), profile: { name: changes.displayName ?? 'Alex Morgan', phone: changes.phone ?? '+1 503 555 0142', marketingOptIn: changes.marketingOptIn ?? false } })),
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

    // ----- Calendar
    listCalendarEvents.server(
      slow(({ date, days, calendar }) => {
        const events = Array.from({ length: days ?? 1 }, (_, day) => addDays(date, day)).flatMap((day) =>
          [0, 1].map((i) => ({
            eventId: `EVT-${3000 + (hash(day + i) % 900)}`,
            title: pick(CALENDAR_TITLES, day, String(i)),
            start: `${day}T${toClock(9 * 60 + (hash(day + i) % 8) * 60)}`,
            calendar: calendar === 'personal' || (calendar !== 'work' && i === 1 && hash(day) % 2 === 0) ? 'personal' : 'work',
          })),
        );
        const shown = events.sort((a, b) => a.start.localeCompare(b.start)).slice(0, 5);
        return { events: shown, more: events.length - shown.length };
      }),
    ),
    createCalendarEvent.server(
      slow(({ title, date, startTime, durationMinutes, attendees }) => ({
        eventId: `EVT-${3000 + (hash(title + date + startTime) % 900)}`,
        title,
        start: `${date}T${startTime}`,
        end: `${date}T${toClock(toMinutes(startTime) + durationMinutes)}`,
        invited: attendees?.length ?? 0,
      })),
    ),
    findFreeSlot.server(
      slow(({ date, durationMinutes, attendees, workingHours }) => {
        const dayStart = toMinutes(workingHours?.start ?? '09:00');
        const dayEnd = toMinutes(workingHours?.end ?? '17:00');
        // Busy until a stable, half-hour aligned offset into the day (more attendees, later slot).
        const startAt = dayStart + ((hash(date + (attendees ?? []).join(',')) % 6) + (attendees?.length ?? 0)) * 30;
        const fits = startAt + durationMinutes <= dayEnd;
        return {
          date,
          start: fits ? toClock(startAt) : null,
          end: fits ? toClock(startAt + durationMinutes) : null,
          checkedAttendees: attendees?.length ?? 0,
        };
      }),
    ),
    cancelCalendarEvent.server(slow(({ eventId, notifyAttendees }) => ({ eventId, cancelled: true, attendeesNotified: notifyAttendees }))),

    // ----- E-mail
    searchEmails.server(
      slow(({ query, from, unreadOnly, limit }) => {
        const subjects = ['Re: Q3 numbers', 'Your order has shipped', 'Holiday campaign draft', 'Invoice #4471', 'Team offsite logistics'];
        const messages = Array.from({ length: limit ?? 3 }, (_, i) => {
          const sender = from ?? emailOf(pick(PEOPLE, query, String(i)));
          return {
            threadId: `TH-${5500 + (hash(query + i) % 400)}`,
            from: sender,
            subject: pick(subjects, query, String(i)),
            date: addDays(TODAY, -i * 2),
            unread: unreadOnly ? true : i === 0,
            snippet: `…${query.slice(0, 16)}…`,
          };
        });
        return { query: query.slice(0, 40), messages };
      }),
    ),
    getEmailThread.server(
      slow(({ threadId }) => {
        const a = pick(PEOPLE, threadId, 'a');
        return {
          threadId,
          subject: pick(['Re: Q3 numbers', 'Team offsite logistics', 'Holiday campaign draft'], threadId),
          messages: [
            { from: emailOf(a), date: addDays(TODAY, -3), body: 'Sharing the latest version; comments welcome by Friday.' },
            { from: 'alex.morgan@example.com', date: addDays(TODAY, -2), body: 'Thanks! Two small notes inline.' },
            { from: emailOf(a), date: addDays(TODAY, -1), body: 'Updated. Good to go from my side.' },
          ],
        };
      }),
    ),
    draftEmail.server(
      slow(({ to, subject, body, tone }) => ({ draftId: `DR-${100 + (hash(to + subject) % 900)}`, to, subject, tone: tone ?? 'neutral', words: body.split(/\s+/).filter(Boolean).length })),
    ),
    sendEmail.server(
      slow(({ to, subject, body }) => ({ messageId: `MSG-${10000 + (hash(to + subject + body) % 90000)}`, to, subject, sent: true as const })),
    ),

    // ----- Files
    searchFiles.server(
      slow(({ query, fileType, modifiedAfter, limit }) => {
        const terms = query.toLowerCase().match(/[a-z0-9]+/g) ?? [];
        const pool = FILES.filter((file) => !fileType || fileType === 'any' || file.type === fileType);
        const matched = pool.filter((file) => terms.some((term) => file.name.toLowerCase().includes(term)));
        const files = (matched.length > 0 ? matched : pool)
          .map(({ id, name, owner }) => ({ id, name, owner, modified: addDays(TODAY, -(hash(id) % 60)) }))
          .filter((file) => !modifiedAfter || file.modified >= modifiedAfter)
          .slice(0, limit ?? 3);
        return { query, exactMatches: matched.length, files };
      }),
    ),
    readFile.server(
      slow(({ fileId, maxChars }) => {
        const file = FILES.find((candidate) => candidate.id === fileId) ?? pick(FILES, fileId);
        const limit = maxChars ?? 400;
        return { fileId, name: file.name, text: FILE_TEXT.slice(0, limit), truncated: FILE_TEXT.length > limit };
      }),
    ),
    shareFile.server(
      slow(({ fileId, recipients, permission }) => ({
        fileId,
        sharedWith: recipients,
        permission,
        link: `https://drive.example.com/f/${fileId}`,
      })),
    ),

    // ----- Notes and tasks
    createNote.server(slow(({ title, body, tags }) => ({ noteId: `NOTE-${100 + (hash(title + body) % 900)}`, title, tags: tags ?? [], characters: body.length }))),
    searchNotes.server(
      slow(({ query, tag }) => ({
        query,
        notes: [
          { noteId: `NOTE-${100 + (hash(query) % 900)}`, title: `Ideas about ${query.slice(0, 40)}`, tags: [tag ?? 'ideas'] },
          { noteId: `NOTE-${100 + (hash(query + 'x') % 900)}`, title: 'Meeting notes: weekly sync', tags: [tag ?? 'meetings'] },
        ],
      })),
    ),
    createTask.server(
      slow(({ title, dueDate, priority, assignee }) => ({
        taskId: `TASK-${10 + (hash(title) % 90)}`,
        title,
        dueDate: dueDate ?? null,
        priority,
        assignee: assignee ?? 'alex.morgan@example.com',
        status: 'open',
      })),
    ),
    listTasks.server(
      slow(({ status, priority, limit }) => {
        const tasks = [
          { taskId: 'TASK-81', title: 'Approve holiday banner copy', priority: 'high', status: 'open', due: addDays(TODAY, 1) },
          { taskId: 'TASK-84', title: 'Reorder USB-C chargers', priority: 'medium', status: 'open', due: addDays(TODAY, 3) },
          { taskId: 'TASK-86', title: 'Reply to supplier about delays', priority: 'high', status: 'done', due: addDays(TODAY, -2) },
          { taskId: 'TASK-88', title: 'Update returns policy PDF', priority: 'low', status: 'open', due: addDays(TODAY, 9) },
        ] as const;
        const filtered = tasks.filter((task) => (status === 'all' || task.status === status) && (!priority || task.priority === priority));
        return { tasks: filtered.slice(0, limit ?? 5) };
      }),
    ),
    completeTask.server(slow(({ taskId }) => ({ taskId, status: 'done', completedOn: TODAY }))),

    // ----- Currency
    convertCurrency.server(
      slow(({ amount, from, to }) => {
        const rate = rateOf(to) / rateOf(from);
        return { amount, from: from.toUpperCase(), to: to.toUpperCase(), rate: Math.round(rate * 10000) / 10000, converted: round2(amount * rate) };
      }),
    ),
    getExchangeRates.server(
      slow(({ base, symbols }) => {
        const baseRate = rateOf(base);
        const targets = symbols && symbols.length > 0 ? symbols.map((code) => code.toUpperCase()) : Object.keys(USD_RATES).filter((code) => code !== base.toUpperCase());
        return {
          base: base.toUpperCase(),
          date: TODAY,
          rates: Object.fromEntries(targets.map((code) => [code, Math.round((rateOf(code) / baseRate) * 10000) / 10000])),
        };
      }),
    ),

    // ----- Analytics and reports
    getSalesReport.server(
      slow(({ period, groupBy, region }) => {
        const labels = {
          day: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'],
          week: ['W44', 'W45', 'W46', 'W47'],
          channel: ['web', 'mobile', 'marketplace'],
          region: ['northAmerica', 'europe', 'asiaPacific'],
        }[groupBy];
        const rows = labels.map((label) => {
          const orders = 40 + (hash(period + (region ?? 'all') + label) % 260);
          const revenue = orders * (55 + (hash(label) % 40));
          return { label, orders, revenue };
        });
        const revenue = rows.reduce((sum, row) => sum + row.revenue, 0);
        const orders = rows.reduce((sum, row) => sum + row.orders, 0);
        return { period, region: region ?? 'all', currency: 'USD', revenue, orders, averageOrderValue: round2(revenue / orders), rows };
      }),
    ),
    getTopProducts.server(
      slow(({ period, rankBy, limit }) => {
        const ranked = [...PRODUCTS]
          .map((product) => ({ id: product.id, name: product.name, units: 20 + (hash(period + product.id) % 400) }))
          .map((row) => ({ ...row, revenue: row.units * productFor(row.id).price }))
          .sort((a, b) => (rankBy === 'revenue' ? b.revenue - a.revenue : b.units - a.units));
        return { period, rankBy: rankBy ?? 'units', products: ranked.slice(0, limit ?? 5) };
      }),
    ),
    getTrafficStats.server(
      slow(({ startDate, endDate, metrics }) => {
        const wanted = metrics && metrics.length > 0 ? metrics : ['sessions', 'conversionRate'];
        const seed = startDate + (endDate ?? startDate);
        const stats: Record<string, unknown> = {};
        if (wanted.includes('sessions')) stats['sessions'] = 8000 + (hash(seed) % 20000);
        if (wanted.includes('conversionRate')) stats['conversionRate'] = round2(1.2 + (hash(seed + 'c') % 250) / 100);
        if (wanted.includes('bounceRate')) stats['bounceRate'] = round2(28 + (hash(seed + 'b') % 3000) / 100);
        if (wanted.includes('referrers')) stats['referrers'] = ['google.com', 'newsletter', 'instagram.com'];
        return { startDate, endDate: endDate ?? startDate, ...stats };
      }),
    ),
    generateReport.server(
      slow(({ reportType, period, format, sections }) => ({
        fileId: `FILE-${300 + (hash(reportType + period + format) % 600)}`,
        name: `${reportType}-${period}.${format}`,
        sections: sections?.length ?? 4,
        pages: format === 'pdf' ? 3 + (hash(reportType + period) % 8) : null,
      })),
    ),
  ] as const;
}

/** The server tools with no simulated latency. */
export const serverTools = createServerTools();
