import {
  calculateFinancing,
  checkInventory,
  compareProducts,
  getProductDetails,
  getProductReviews,
  getRecommendations,
  searchProducts,
} from '../../shared/catalog.ts';
import { hash, pick, round2, PRODUCTS, productFor, PEOPLE } from './demoData.ts';
import type { Latency } from './latency.ts';

/** Server implementations of the products tools. */
export function productTools(slow: Latency) {
  return [
    searchProducts.server(
      slow(({ query, maxResults }) => {
        const terms = query.toLowerCase().match(/[a-z0-9]+/g) ?? [];
        const scored = PRODUCTS.map((product) => {
          const haystack = `${product.name} ${product.category}`.toLowerCase();
          return { product, score: terms.filter((term) => term.length > 1 && haystack.includes(term.replace(/s$/, ''))).length };
        });
        const matches = scored.filter((entry) => entry.score > 0).sort((a, b) => b.score - a.score);
        // Nothing matched: suggest popular products instead, in a stable order for this query.
        const ranked =
          matches.length > 0
            ? matches.map((entry) => entry.product)
            : [...PRODUCTS].sort((a, b) => hash(query + a.id) - hash(query + b.id));
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
            ? {
                specs: {
                  weightGrams: product.weightG,
                  warrantyMonths: product.warrantyMonths,
                  connectivity: pick(['USB-C', 'Bluetooth 5.3', 'Wi-Fi 6'], product.id),
                },
              }
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
                  units: hash(productId + postalCode + i) % 9,
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
          return {
            author: pick(PEOPLE, product.id, String(i)).split(' ')[0] as string,
            stars,
            excerpt: excerpts[hash(product.id + i) % excerpts.length] as string,
          };
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
  ] as const;
}
