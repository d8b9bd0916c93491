/**
 * The demo's fake data and deterministic helpers the tool domains share: the same input always gives
 * the same output (values are derived from the input's characters), and nothing reads the clock.
 */

/** A small stable hash of a string (FNV-1a, 32-bit, unsigned). */
export function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** An error whose message the model and the user may read (`expose: true`); others reach them as "failed". */
export const exposed = (message: string): Error => Object.assign(new Error(message), { expose: true });

export const pick = <T>(items: readonly T[], seed: string, salt = ''): T => items[hash(seed + salt) % items.length] as T;

export const round2 = (value: number): number => Math.round(value * 100) / 100;

/** The demo's "today": fixed, so outputs never depend on the clock. */
export const TODAY = '2026-11-20';

export function addDays(isoDate: string, days: number): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

export interface Product {
  readonly id: string;
  readonly name: string;
  readonly category: string;
  readonly price: number;
  readonly rating: number;
  readonly warrantyMonths: number;
  readonly weightG: number;
}

export const PRODUCTS: readonly Product[] = [
  {
    id: 'P-1001',
    name: 'Aurora Noise-Cancelling Headphones',
    category: 'audio',
    price: 199,
    rating: 4.6,
    warrantyMonths: 24,
    weightG: 250,
  },
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
export function productFor(id: string): Product {
  return PRODUCTS.find((product) => product.id.toLowerCase() === id.trim().toLowerCase()) ?? { ...pick(PRODUCTS, id), id };
}

export const PEOPLE = ['Maya Chen', 'Liam Novak', 'Priya Raman', 'Jonas Berg', 'Ana Souza', 'Tom Okafor'];
