import { z } from 'zod';
import { toolDefinition } from '@chatwire/core';
import { productId } from './fields.ts';

/* The demo catalog: Products (server). */

export const searchProducts = toolDefinition({
  name: 'searchProducts',
  description:
    'Searches the shop catalog by keywords and returns matching products with their id, price and stock status. Use the returned ids with the other product tools.',
  inputSchema: z.object({
    query: z.string().min(1).max(120).describe('Keywords, a product name or a category, e.g. "noise cancelling headphones".'),
    maxResults: z.number().int().min(1).max(5).optional().describe('How many products to return, 1 to 5. Defaults to 3.'),
  }),
  outputSchema: z.object({
    query: z.string(),
    total: z.number().int(),
    results: z.array(z.object({ id: z.string(), name: z.string(), price: z.number(), currency: z.string(), inStock: z.boolean() })),
  }),
});

export const getProductDetails = toolDefinition({
  name: 'getProductDetails',
  description: 'Full details of one product: description, price, rating, variants and, on request, technical specifications.',
  lazy: true,
  inputSchema: z.object({
    productId,
    includeSpecs: z.boolean().optional().describe('Also return the technical specification table. Defaults to false.'),
    locale: z.enum(['en-US', 'en-GB', 'de-DE', 'fr-FR', 'ja-JP']).optional().describe('Language and currency of the listing.'),
  }),
});

export const compareProducts = toolDefinition({
  name: 'compareProducts',
  description:
    'Compares two to four products side by side on price, rating, warranty and key attributes. Pass product ids returned by searchProducts; ask for specific attributes to keep the comparison short.',
  lazy: true,
  inputSchema: z.object({
    productIds: z.array(productId).min(2).max(4).describe('Between 2 and 4 product ids to compare.'),
    attributes: z
      .array(z.enum(['price', 'rating', 'warranty', 'weight', 'battery', 'dimensions']))
      .max(4)
      .optional()
      .describe('Up to 4 attributes to include. Defaults to price, rating and warranty.'),
  }),
  outputSchema: z.object({
    attributes: z.array(z.string()),
    products: z.array(z.record(z.string(), z.union([z.string(), z.number()]))),
    cheapest: z.string(),
  }),
});

export const checkInventory = toolDefinition({
  name: 'checkInventory',
  description:
    'Stock levels for a product in the online warehouse and, given a postal code, in nearby stores. Store stock is refreshed hourly.',
  lazy: true,
  inputSchema: z.object({
    productId,
    postalCode: z.string().max(12).optional().describe('Postal code to look for stores around.'),
    radiusKm: z.number().min(1).max(100).optional().describe('Search radius for stores in kilometres, 1 to 100. Defaults to 25.'),
  }),
});

export const calculateFinancing = toolDefinition({
  name: 'calculateFinancing',
  description:
    'Monthly payment plan for buying a product in instalments. Returns the monthly amount, the APR and the total cost; plans of 12 months or less are interest-free.',
  lazy: true,
  inputSchema: z.object({
    productId,
    months: z.number().int().min(3).max(48).describe('Length of the plan in months, 3 to 48.'),
    downPayment: z.number().min(0).optional().describe('Amount paid up front, in the product currency. Defaults to 0.'),
  }),
  outputSchema: z.object({
    productId: z.string(),
    price: z.number(),
    months: z.number().int(),
    apr: z.number(),
    monthlyPayment: z.number(),
    totalCost: z.number(),
    currency: z.string(),
  }),
});

export const getProductReviews = toolDefinition({
  name: 'getProductReviews',
  description: 'Customer reviews of a product with star ratings and a short excerpt of each.',
  lazy: true,
  inputSchema: z.object({
    productId,
    sort: z.enum(['mostHelpful', 'newest', 'lowestRating', 'highestRating']).default('mostHelpful').describe('Review order.'),
    limit: z.number().int().min(1).max(5).optional().describe('How many reviews, 1 to 5. Defaults to 3.'),
  }),
});

export const getRecommendations = toolDefinition({
  name: 'getRecommendations',
  description:
    "Personal product recommendations based on the customer's recent orders, optionally anchored on one product and capped by a budget.",
  lazy: true,
  inputSchema: z.object({
    basedOnProductId: productId.optional(),
    budget: z.number().min(1).max(10000).optional().describe('Highest price to recommend, in USD.'),
    count: z.number().int().min(1).max(6).optional().describe('How many recommendations, 1 to 6. Defaults to 3.'),
  }),
});
