import { z } from 'zod';
import { toolDefinition, type AnyTool } from '@chatwire/core';

/**
 * The demo's tool catalog: a workspace + shop assistant. Definitions only (names, descriptions,
 * schemas, flags), so both the browser and the server can import this file. Server
 * implementations live in `server/toolImplementations.ts`, browser ones in `src/tools/browserTools.ts`.
 *
 * Eager tools are sent to the model on every call; lazy ones (`lazy: true`) wait in the discovery
 * catalog until the model asks for them, which is what keeps this long list cheap.
 */

// ---------------------------------------------------------------------------------------------
// Shared field schemas

const orderId = z.string().min(1).max(40).describe('Order id as shown in the order history, e.g. "ORD-1234".');
const productId = z.string().min(1).max(40).describe('Product id from searchProducts, e.g. "P-1042".');
const isoDate = z.iso.date().describe('Calendar date in ISO format, YYYY-MM-DD.');
const clockTime = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/)
  .describe('Local time of day, 24-hour HH:MM.');
const supportedCurrency = z.enum(['USD', 'EUR', 'GBP', 'JPY', 'CHF', 'CAD', 'AUD', 'SEK']);
const currencyCode = z
  .string()
  .regex(/^[A-Za-z]{3}$/)
  .describe('ISO 4217 currency code such as "USD", "EUR" or "JPY".');

export const themeSchema = z.enum(['light', 'dark']);
export const bannerToneSchema = z.enum(['info', 'success', 'warning']);
export const accentColorSchema = z.enum(['indigo', 'teal', 'rose', 'amber']);

/** The page themes `setTheme` and `applyPreferences` accept. */
export type Theme = z.infer<typeof themeSchema>;
/** The banner tones `showBanner` accepts. */
export type BannerTone = z.infer<typeof bannerToneSchema>;
/** The accent colours `setAccentColor` accepts. */
export type AccentColor = z.infer<typeof accentColorSchema>;

// ---------------------------------------------------------------------------------------------
// Weather (server)

export const getWeather = toolDefinition({
  name: 'getWeather',
  description: 'Current weather conditions for a city: temperature in Celsius and a short description of the sky.',
  inputSchema: z.object({
    city: z.string().min(1).max(80).describe('City name, optionally with a country, e.g. "Lisbon" or "Portland, OR".'),
  }),
  outputSchema: z.object({
    city: z.string(),
    celsius: z.number(),
    conditions: z.string(),
  }),
});

export const getForecast = toolDefinition({
  name: 'getForecast',
  description:
    'Multi-day forecast for a city with daily highs, lows and chance of rain. Use getWeather instead when only the current conditions are needed.',
  lazy: true,
  inputSchema: z.object({
    city: z.string().min(1).max(80).describe('City name, optionally with a country.'),
    days: z.number().int().min(1).max(7).describe('How many days ahead, 1 to 7.'),
    units: z.enum(['metric', 'imperial']).default('metric').describe('Temperature units. Defaults to metric (Celsius).'),
  }),
  outputSchema: z.object({
    city: z.string(),
    units: z.enum(['metric', 'imperial']),
    days: z.array(z.object({ date: z.string(), high: z.number(), low: z.number(), rainChance: z.number() })),
  }),
});

// ---------------------------------------------------------------------------------------------
// Products (server)

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

// ---------------------------------------------------------------------------------------------
// Orders (server)

const orderStatus = z.enum(['processing', 'shipped', 'delivered', 'cancelled', 'refunded']);

export const listOrders = toolDefinition({
  name: 'listOrders',
  description: "The customer's recent orders, newest first, with status and total. Filter by status or date to narrow the list.",
  lazy: true,
  inputSchema: z.object({
    status: orderStatus.optional().describe('Only orders in this status.'),
    since: isoDate.optional().describe('Only orders placed on or after this date (YYYY-MM-DD).'),
    limit: z.number().int().min(1).max(6).optional().describe('How many orders, 1 to 6. Defaults to 4.'),
  }),
});

export const getOrder = toolDefinition({
  name: 'getOrder',
  description: 'One order with its items, totals, payment method, shipping address and tracking number.',
  lazy: true,
  inputSchema: z.object({ orderId }),
  outputSchema: z.object({
    orderId: z.string(),
    status: orderStatus,
    placedOn: z.string(),
    items: z.array(z.object({ productId: z.string(), name: z.string(), quantity: z.number().int(), price: z.number() })),
    total: z.number(),
    currency: z.string(),
    trackingNumber: z.string().nullable(),
  }),
});

export const cancelOrder = toolDefinition({
  name: 'cancelOrder',
  description:
    'Cancels an order that has not shipped yet and releases the payment hold. Real orders need the customer\'s approval; test orders (ids starting with "TEST-") are cancelled at once.',
  lazy: true,
  needsApproval: ({ orderId }) => !orderId.startsWith('TEST-'),
  inputSchema: z.object({
    orderId,
    reason: z
      .enum(['changedMind', 'foundCheaper', 'orderedByMistake', 'deliveryTooSlow', 'other'])
      .optional()
      .describe("Why the customer cancels, for the merchant's records."),
  }),
});

export const refundOrder = toolDefinition({
  name: 'refundOrder',
  description:
    "Refunds a delivered order to the original payment method. Always requires the customer's approval; the money arrives in 3 to 5 business days.",
  needsApproval: true,
  inputSchema: z.object({
    orderId,
    reason: z.string().max(200).optional().describe("Short reason for the refund in the customer's words."),
  }),
  outputSchema: z.object({
    orderId: z.string(),
    refundId: z.string(),
    amount: z.number(),
    currency: z.string(),
    status: z.literal('pending'),
    expectedInDays: z.string(),
  }),
});

export const updateShippingAddress = toolDefinition({
  name: 'updateShippingAddress',
  description: "Changes the delivery address of an order that has not shipped yet. Needs the customer's approval.",
  lazy: true,
  needsApproval: true,
  inputSchema: z.object({
    orderId,
    address: z
      .object({
        line1: z.string().min(1).max(100).describe('Street and house number.'),
        line2: z.string().max(100).optional().describe('Apartment, suite or floor.'),
        city: z.string().min(1).max(60),
        postalCode: z.string().min(1).max(12),
        country: z.string().min(2).max(56).describe('Country name or ISO 3166 code.'),
      })
      .describe('The new delivery address.'),
  }),
});

// ---------------------------------------------------------------------------------------------
// Shipping (server)

export const trackShipment = toolDefinition({
  name: 'trackShipment',
  description:
    'Live tracking for a parcel: carrier, current status, last scan location and the estimated delivery date. Takes the tracking number printed on the order, not the order id.',
  lazy: true,
  inputSchema: z.object({
    trackingNumber: z.string().min(1).max(40).describe('Carrier tracking number, e.g. "1Z999AA10123456784".'),
  }),
  outputSchema: z.object({
    trackingNumber: z.string(),
    carrier: z.string(),
    status: z.enum(['labelCreated', 'inTransit', 'outForDelivery', 'delivered']),
    lastLocation: z.string(),
    estimatedDelivery: z.string(),
  }),
});

export const estimateDelivery = toolDefinition({
  name: 'estimateDelivery',
  description: 'Estimated delivery window and cost for shipping to a postal code with a given method.',
  lazy: true,
  inputSchema: z.object({
    postalCode: z.string().min(1).max(12).describe('Destination postal code.'),
    method: z.enum(['standard', 'express', 'overnight']).describe('Shipping speed.'),
    weightKg: z.number().min(0.1).max(70).optional().describe('Parcel weight in kilograms. Defaults to 1.'),
  }),
});

export const getShippingRates = toolDefinition({
  name: 'getShippingRates',
  description:
    'Quotes every available carrier for a basket of items shipped to a country. Useful before checkout to pick the cheapest or fastest option.',
  lazy: true,
  inputSchema: z.object({
    destinationCountry: z.string().min(2).max(56).describe('Country name or ISO 3166 code.'),
    items: z
      .array(
        z.object({
          productId,
          quantity: z.number().int().min(1).max(20).describe('Units of this product, 1 to 20.'),
        }),
      )
      .min(1)
      .max(10)
      .describe('The basket: one entry per product.'),
  }),
});

// ---------------------------------------------------------------------------------------------
// Customer account (server)

export const fetchPreferences = toolDefinition({
  name: 'fetchPreferences',
  description: "The signed-in user's saved display preferences: theme, language and welcome banner.",
  inputSchema: z.object({}),
  outputSchema: z.object({
    theme: themeSchema,
    language: z.string(),
    banner: z.string(),
  }),
});

export const getCustomerProfile = toolDefinition({
  name: 'getCustomerProfile',
  description: "The customer's account profile: name, e-mail, membership tier, default address and member-since date.",
  lazy: true,
  inputSchema: z.object({
    fields: z
      .array(z.enum(['name', 'email', 'tier', 'address', 'memberSince', 'phone']))
      .optional()
      .describe('Only these fields. Defaults to all of them.'),
  }),
});

export const updateCustomerProfile = toolDefinition({
  name: 'updateCustomerProfile',
  description: "Updates account details. Only the fields given change; needs the customer's approval because it edits personal data.",
  lazy: true,
  needsApproval: true,
  inputSchema: z.object({
    changes: z
      .object({
        displayName: z.string().min(1).max(60).optional().describe('Name shown on the account and on receipts.'),
        phone: z.string().max(20).optional().describe('Phone number in international format, e.g. "+44 20 7946 0958".'),
        marketingOptIn: z.boolean().optional().describe('Whether the customer wants promotional e-mails.'),
      })
      .describe('The fields to change.'),
  }),
});

export const listPaymentMethods = toolDefinition({
  name: 'listPaymentMethods',
  description: 'Saved payment methods on the account, with the card brand, last four digits and expiry. Never returns full card numbers.',
  lazy: true,
  inputSchema: z.object({}),
});

export const getLoyaltyPoints = toolDefinition({
  name: 'getLoyaltyPoints',
  description: 'Loyalty point balance, tier and the points that expire soon.',
  lazy: true,
  inputSchema: z.object({
    includeHistory: z.boolean().optional().describe('Also list the last few point transactions.'),
  }),
});

// ---------------------------------------------------------------------------------------------
// Calendar (server)

export const listCalendarEvents = toolDefinition({
  name: 'listCalendarEvents',
  description: "Events on the user's calendar for a day or a short range of days, in start order.",
  lazy: true,
  inputSchema: z.object({
    date: isoDate.describe('First day to list (YYYY-MM-DD).'),
    days: z.number().int().min(1).max(14).optional().describe('How many days from that date, 1 to 14. Defaults to 1.'),
    calendar: z.enum(['work', 'personal', 'all']).optional().describe('Which calendar. Defaults to all.'),
  }),
});

export const createCalendarEvent = toolDefinition({
  name: 'createCalendarEvent',
  description:
    "Creates an event on the user's work calendar and sends invitations to the attendees. Check availability with findFreeSlot first when attendees are involved.",
  lazy: true,
  inputSchema: z.object({
    title: z.string().min(1).max(120).describe('Event title as shown on the calendar.'),
    date: isoDate,
    startTime: clockTime.default('09:00').describe('Start time, 24-hour HH:MM. Defaults to 09:00.'),
    durationMinutes: z.number().int().min(15).max(480).describe('Length in minutes, 15 to 480.'),
    attendees: z.array(z.email()).max(20).optional().describe('E-mail addresses to invite.'),
    location: z.string().max(120).optional().describe('Room, address or video-call link.'),
  }),
  outputSchema: z.object({
    eventId: z.string(),
    title: z.string(),
    start: z.string(),
    end: z.string(),
    invited: z.number().int(),
  }),
});

export const findFreeSlot = toolDefinition({
  name: 'findFreeSlot',
  description:
    'Finds the first time on a day when the user and every attendee are free for the requested duration. Searches working hours only (09:00 to 17:00 unless given).',
  lazy: true,
  inputSchema: z.object({
    date: isoDate,
    durationMinutes: z.number().int().min(15).max(240).describe('Length of the slot in minutes, 15 to 240.'),
    attendees: z.array(z.email()).max(10).optional().describe('Other people who must be free too.'),
    workingHours: z
      .object({
        start: clockTime.default('09:00').describe('Start of the window, HH:MM. Defaults to 09:00.'),
        end: clockTime.default('17:00').describe('End of the window, HH:MM. Defaults to 17:00.'),
      })
      .optional()
      .describe('Window to search within. Defaults to 09:00 to 17:00.'),
  }),
  outputSchema: z.object({
    date: z.string(),
    start: z.string().nullable(),
    end: z.string().nullable(),
    checkedAttendees: z.number().int(),
  }),
});

export const cancelCalendarEvent = toolDefinition({
  name: 'cancelCalendarEvent',
  description: 'Deletes an event from the calendar and, by default, notifies its attendees. Needs approval.',
  lazy: true,
  needsApproval: true,
  inputSchema: z.object({
    eventId: z.string().min(1).describe('Event id from listCalendarEvents, e.g. "EVT-3021".'),
    notifyAttendees: z.boolean().default(true).describe('Send a cancellation notice. Defaults to true.'),
  }),
});

// ---------------------------------------------------------------------------------------------
// E-mail (server)

export const searchEmails = toolDefinition({
  name: 'searchEmails',
  description:
    "Searches the user's mailbox and returns matching messages with sender, subject, date and a one-line snippet. Supports plain keywords; filter by sender or unread state with the optional fields.",
  lazy: true,
  inputSchema: z.object({
    query: z.string().min(1).max(200).describe('Keywords to look for in subjects and bodies.'),
    from: z.email().optional().describe('Only messages from this address.'),
    unreadOnly: z.boolean().optional().describe('Only unread messages.'),
    limit: z.number().int().min(1).max(3).optional().describe('How many messages, 1 to 3. Defaults to 3.'),
  }),
});

export const getEmailThread = toolDefinition({
  name: 'getEmailThread',
  description: 'All messages of one e-mail thread, oldest first, with bodies shortened to a few lines each.',
  lazy: true,
  inputSchema: z.object({
    threadId: z.string().min(1).describe('Thread id from searchEmails, e.g. "TH-5521".'),
  }),
});

export const draftEmail = toolDefinition({
  name: 'draftEmail',
  description:
    'Saves an e-mail as a draft without sending it, so the user can review it in their mail client. Prefer this over sendEmail when the user has not explicitly asked to send.',
  lazy: true,
  inputSchema: z.object({
    to: z.email().describe('Recipient address.'),
    subject: z.string().min(1).max(150).describe('Subject line.'),
    body: z.string().min(1).max(5000).describe('Plain-text body.'),
    tone: z.enum(['neutral', 'friendly', 'formal']).optional().describe('Tone to polish the body towards.'),
  }),
});

export const sendEmail = toolDefinition({
  name: 'sendEmail',
  description: "Sends an e-mail from the user's account. Always requires approval; the message cannot be recalled once sent.",
  lazy: true,
  needsApproval: true,
  inputSchema: z.object({
    to: z.email().describe('Recipient address.'),
    subject: z.string().min(1).max(150).describe('Subject line.'),
    body: z.string().min(1).max(5000).describe('Plain-text body.'),
  }),
  outputSchema: z.object({
    messageId: z.string(),
    to: z.string(),
    subject: z.string(),
    sent: z.literal(true),
  }),
});

// ---------------------------------------------------------------------------------------------
// Files (server)

export const searchFiles = toolDefinition({
  name: 'searchFiles',
  description:
    'Searches the shared drive by file name and content. Returns file ids, names, owners and modification dates; open a result with readFile.',
  lazy: true,
  inputSchema: z.object({
    query: z.string().min(1).max(200).describe('Words in the file name or content.'),
    fileType: z
      .enum(['any', 'document', 'spreadsheet', 'presentation', 'pdf', 'image'])
      .optional()
      .describe('Restrict to one kind of file.'),
    modifiedAfter: isoDate.optional().describe('Only files changed on or after this date.'),
    limit: z.number().int().min(1).max(5).optional().describe('How many files, 1 to 5. Defaults to 3.'),
  }),
});

export const readFile = toolDefinition({
  name: 'readFile',
  description: 'Reads the text of a file from the shared drive, truncated to maxChars characters.',
  lazy: true,
  inputSchema: z.object({
    fileId: z.string().min(1).describe('File id from searchFiles, e.g. "FILE-204".'),
    maxChars: z.number().int().min(100).max(4000).optional().describe('Most characters to return, 100 to 4000. Defaults to 400.'),
  }),
});

export const shareFile = toolDefinition({
  name: 'shareFile',
  description:
    'Shares a file with other people and e-mails them a link. Needs approval. Grant the least permission that does the job: view, then comment, then edit.',
  lazy: true,
  needsApproval: true,
  inputSchema: z.object({
    fileId: z.string().min(1).describe('File id from searchFiles.'),
    recipients: z.array(z.email()).min(1).max(10).describe('Addresses to share with.'),
    permission: z.enum(['view', 'comment', 'edit']).describe('What the recipients may do.'),
    message: z.string().max(500).optional().describe('Note to include in the sharing e-mail.'),
  }),
});

// ---------------------------------------------------------------------------------------------
// Notes and tasks (server)

export const createNote = toolDefinition({
  name: 'createNote',
  description: "Saves a note to the user's notebook, optionally tagged for later search.",
  lazy: true,
  inputSchema: z.object({
    title: z.string().min(1).max(120).describe('Note title.'),
    body: z.string().min(1).max(4000).describe('Note text; Markdown is kept as plain text.'),
    tags: z.array(z.string().min(1).max(30)).max(5).optional().describe('Up to 5 tags, e.g. ["travel", "receipts"].'),
  }),
});

export const searchNotes = toolDefinition({
  name: 'searchNotes',
  description: 'Finds notes by words in their title or body, or by tag.',
  lazy: true,
  inputSchema: z.object({
    query: z.string().min(1).max(200).describe('Words to look for.'),
    tag: z.string().max(30).optional().describe('Only notes with this tag.'),
  }),
});

const taskPriority = z.enum(['low', 'medium', 'high']);

export const createTask = toolDefinition({
  name: 'createTask',
  description:
    'Adds a task to the team task tracker with an optional due date, priority and assignee. For a quick personal checklist item on this page, use addTodo instead.',
  lazy: true,
  inputSchema: z.object({
    title: z.string().min(1).max(120).describe('What needs doing.'),
    dueDate: isoDate.optional().describe('Due date (YYYY-MM-DD).'),
    priority: taskPriority.default('medium').describe('Defaults to medium.'),
    assignee: z.email().optional().describe('Who should do it. Defaults to the user.'),
  }),
});

export const listTasks = toolDefinition({
  name: 'listTasks',
  description: 'Tasks from the team task tracker, most urgent first.',
  lazy: true,
  inputSchema: z.object({
    status: z.enum(['open', 'done', 'all']).default('open').describe('Which tasks. Defaults to open ones.'),
    priority: taskPriority.optional().describe('Only tasks of this priority.'),
    limit: z.number().int().min(1).max(10).optional().describe('How many tasks, 1 to 10. Defaults to 5.'),
  }),
});

export const completeTask = toolDefinition({
  name: 'completeTask',
  description: 'Marks a task as done.',
  lazy: true,
  inputSchema: z.object({
    taskId: z.string().min(1).describe('Task id from listTasks, e.g. "TASK-88".'),
  }),
});

// ---------------------------------------------------------------------------------------------
// Currency (server)

export const convertCurrency = toolDefinition({
  name: 'convertCurrency',
  description:
    "Converts an amount between currencies at today's mid-market rate. Use it to convert prices for customers abroad; supports USD, EUR, GBP, JPY, CHF, CAD, AUD and SEK.",
  lazy: true,
  inputSchema: z.object({
    amount: z.number().min(0).max(1_000_000_000).describe('Amount in the source currency.'),
    from: currencyCode.describe('Source currency, ISO 4217 code such as "USD".'),
    to: currencyCode.describe('Target currency, ISO 4217 code such as "EUR".'),
  }),
  outputSchema: z.object({
    amount: z.number(),
    from: z.string(),
    to: z.string(),
    rate: z.number(),
    converted: z.number(),
  }),
});

export const getExchangeRates = toolDefinition({
  name: 'getExchangeRates',
  description: "Today's exchange rates from one base currency to several others.",
  lazy: true,
  inputSchema: z.object({
    base: currencyCode.default('USD').describe('Base currency. Defaults to USD.'),
    symbols: z.array(supportedCurrency).max(8).optional().describe('Target currencies. Defaults to all supported ones.'),
  }),
});

// ---------------------------------------------------------------------------------------------
// Analytics and reports (server)

const reportPeriod = z.enum(['last7Days', 'last30Days', 'thisQuarter', 'lastQuarter', 'yearToDate']);

export const getSalesReport = toolDefinition({
  name: 'getSalesReport',
  description:
    'Revenue, order count and average order value for a period, grouped by day, week, channel or region. Figures are in USD and exclude tax.',
  lazy: true,
  inputSchema: z.object({
    period: reportPeriod.describe('Reporting period.'),
    groupBy: z.enum(['day', 'week', 'channel', 'region']).describe('How to break the figures down.'),
    region: z.enum(['all', 'northAmerica', 'europe', 'asiaPacific']).optional().describe('Only this region. Defaults to all.'),
  }),
});

export const getTopProducts = toolDefinition({
  name: 'getTopProducts',
  description: 'Best-selling products for a period, by units sold or by revenue.',
  lazy: true,
  inputSchema: z.object({
    period: reportPeriod,
    rankBy: z.enum(['units', 'revenue']).optional().describe('Ranking metric. Defaults to units.'),
    limit: z.number().int().min(1).max(5).optional().describe('How many products, 1 to 5. Defaults to 5.'),
  }),
});

export const getTrafficStats = toolDefinition({
  name: 'getTrafficStats',
  description:
    'Storefront traffic for a date range: sessions, conversion rate and the top referrers. Use it with getSalesReport to explain changes in revenue.',
  lazy: true,
  inputSchema: z.object({
    startDate: isoDate.describe('First day of the range (YYYY-MM-DD).'),
    endDate: isoDate.optional().describe('Last day of the range. Defaults to the start date.'),
    metrics: z
      .array(z.enum(['sessions', 'conversionRate', 'bounceRate', 'referrers']))
      .min(1)
      .optional()
      .describe('Metrics to include. Defaults to sessions and conversionRate.'),
  }),
});

export const generateReport = toolDefinition({
  name: 'generateReport',
  description:
    'Builds a formatted report (PDF or spreadsheet) from the analytics data and stores it on the shared drive. Generation can take up to a minute; the result is a file id for readFile or shareFile.',
  lazy: true,
  timeoutMs: 60_000,
  inputSchema: z.object({
    reportType: z.enum(['sales', 'traffic', 'inventory', 'customerSatisfaction']).describe('Which report.'),
    period: reportPeriod,
    format: z.enum(['pdf', 'xlsx', 'csv']).default('pdf').describe('File format. Defaults to pdf.'),
    sections: z
      .array(
        z.object({
          title: z.string().min(1).max(80).describe('Section heading.'),
          chart: z.enum(['none', 'line', 'bar', 'pie']).optional().describe('Chart to include in the section.'),
        }),
      )
      .max(8)
      .optional()
      .describe('Custom sections, in order. Defaults to the standard layout of the report type.'),
  }),
});

// ---------------------------------------------------------------------------------------------
// Browser and page tools (implemented in the browser)

export const setTheme = toolDefinition({
  name: 'setTheme',
  description: 'Switches this page between the light and dark colour themes.',
  inputSchema: z.object({
    theme: themeSchema.describe('The theme to switch to.'),
  }),
});

export const showBanner = toolDefinition({
  name: 'showBanner',
  description: 'Shows a one-line banner at the top of this page, replacing any banner already shown.',
  inputSchema: z.object({
    text: z.string().min(1).max(200).describe('Banner text, plain text only.'),
    tone: bannerToneSchema.optional().describe('Colour of the banner. Defaults to info.'),
  }),
});

export const highlightMessage = toolDefinition({
  name: 'highlightMessage',
  description: 'Pins a highlighted note in the "Pinned notes" area of this page so the user keeps it in view. Asks the user first.',
  needsApproval: true,
  inputSchema: z.object({
    text: z.string().min(1).max(300).describe('Text of the note to pin.'),
  }),
});

export const applyPreferences = toolDefinition({
  name: 'applyPreferences',
  description:
    'Applies saved preferences to this page: sets the theme and shows the welcome banner. Pass the values returned by fetchPreferences.',
  inputSchema: z.object({
    theme: themeSchema.describe('Theme from the saved preferences.'),
    banner: z.string().max(200).describe('Welcome banner text from the saved preferences.'),
  }),
});

export const addTodo = toolDefinition({
  name: 'addTodo',
  description: 'Adds an item to the to-do list shown on this page.',
  lazy: true,
  inputSchema: z.object({
    title: z.string().min(1).max(120).describe('The to-do item.'),
  }),
});

export const setAccentColor = toolDefinition({
  name: 'setAccentColor',
  description: 'Changes the accent colour of this page (buttons, links and highlights).',
  lazy: true,
  inputSchema: z.object({
    color: accentColorSchema.describe('The accent colour.'),
  }),
});

export const scrollToTop = toolDefinition({
  name: 'scrollToTop',
  description: 'Scrolls the conversation back to its first message.',
  lazy: true,
  inputSchema: z.object({}),
});

export const getViewportInfo = toolDefinition({
  name: 'getViewportInfo',
  description:
    'Reads the size of the browser window and whether the user prefers dark mode or reduced motion. Useful before changing the layout or theme.',
  lazy: true,
  inputSchema: z.object({}),
});

export const getBrowserLocale = toolDefinition({
  name: 'getBrowserLocale',
  description:
    "The user's language, time zone and local time as reported by their browser. Use it to format dates and to pick a sensible currency before calling convertCurrency.",
  lazy: true,
  inputSchema: z.object({}),
});

export const copyToClipboard = toolDefinition({
  name: 'copyToClipboard',
  description: "Copies text to the user's clipboard, e.g. an order id or a tracking number.",
  lazy: true,
  inputSchema: z.object({
    text: z.string().min(1).max(2000).describe('The text to copy.'),
  }),
});

// ---------------------------------------------------------------------------------------------
// Lists

/** Definitions that get a server implementation (in `server/toolImplementations.ts`). */
export const serverToolDefinitions = [
  getWeather,
  searchProducts,
  refundOrder,
  fetchPreferences,
  getForecast,
  getProductDetails,
  compareProducts,
  checkInventory,
  calculateFinancing,
  getProductReviews,
  getRecommendations,
  listOrders,
  getOrder,
  cancelOrder,
  updateShippingAddress,
  trackShipment,
  estimateDelivery,
  getShippingRates,
  getCustomerProfile,
  updateCustomerProfile,
  listPaymentMethods,
  getLoyaltyPoints,
  listCalendarEvents,
  createCalendarEvent,
  findFreeSlot,
  cancelCalendarEvent,
  searchEmails,
  getEmailThread,
  draftEmail,
  sendEmail,
  searchFiles,
  readFile,
  shareFile,
  createNote,
  searchNotes,
  createTask,
  listTasks,
  completeTask,
  convertCurrency,
  getExchangeRates,
  getSalesReport,
  getTopProducts,
  getTrafficStats,
  generateReport,
] as const;

/** Definitions whose implementation runs in the browser (in `src/tools/browserTools.ts`). */
export const browserToolDefinitions = [
  setTheme,
  showBanner,
  highlightMessage,
  applyPreferences,
  addTodo,
  setAccentColor,
  scrollToTop,
  getViewportInfo,
  getBrowserLocale,
  copyToClipboard,
] as const;

const allDefinitions: readonly AnyTool[] = [...serverToolDefinitions, ...browserToolDefinitions];

/** Every definition, eager ones first (server before browser within each group), in a stable order. */
export const catalog: readonly AnyTool[] = [...allDefinitions.filter((tool) => !tool.lazy), ...allDefinitions.filter((tool) => tool.lazy)];
