import { z } from 'zod';
import { toolDefinition, type AnyTool } from '@chatwire/core';

/**
 * A second catalog for the discovery economics test: 5 eager + 35 lazy tools of a billing and
 * support assistant, written the way the demo's are (a sentence or two of description, described
 * fields, enums and bounds), so its definitions cost what real ones do. Hand-written for the test;
 * every implementation echoes its input, since only the definitions and the calls matter here.
 */

const id = (what: string, example: string) => z.string().min(1).max(40).describe(`${what}, e.g. "${example}".`);
const isoDate = z.iso.date().describe('Calendar date, YYYY-MM-DD.');
const limit = z.number().int().min(1).max(100).optional().describe('Most results to return (default 20).');

interface Spec {
  readonly name: string;
  readonly description: string;
  readonly input: z.ZodObject;
  readonly lazy?: boolean;
}

const specs: Spec[] = [
  // Eager: what nearly every support conversation needs.
  {
    name: 'searchHelpCenter',
    description: 'Searches the public help center and returns the best matching articles with their titles, links and a short excerpt.',
    input: z.object({ query: z.string().min(2).max(200).describe('What the customer asked, in their words.'), limit }),
  },
  {
    name: 'getAccount',
    description: 'The signed-in account: company name, plan, billing email, seats in use and the account owner.',
    input: z.object({ accountId: id('Account id', 'ACC-2201').optional() }),
  },
  {
    name: 'createTicket',
    description: 'Opens a support ticket for the team to follow up on. Use it when the question cannot be answered now.',
    input: z.object({
      subject: z.string().min(3).max(120).describe('One-line summary.'),
      body: z.string().min(1).max(4000).describe('What happened and what the customer expects.'),
      priority: z.enum(['low', 'normal', 'high', 'urgent']).describe('How soon the team must react.'),
    }),
  },
  {
    name: 'getTicket',
    description: 'A support ticket with its status, assignee, messages and the last update time.',
    input: z.object({ ticketId: id('Ticket id', 'TCK-5521') }),
  },
  {
    name: 'listRecentOrders',
    description: 'The most recent orders of the account: number, date, total and status, newest first.',
    input: z.object({ limit }),
  },

  // Lazy: invoices and payments.
  {
    name: 'getInvoice',
    lazy: true,
    description: 'One invoice with its lines, taxes, total, due date and payment status.',
    input: z.object({ invoiceId: id('Invoice id', 'INV-1042') }),
  },
  {
    name: 'listInvoices',
    lazy: true,
    description: 'Invoices of the account in a date range, filtered by status, newest first.',
    input: z.object({
      status: z.enum(['draft', 'open', 'paid', 'void', 'uncollectible']).optional().describe('Only invoices in this status.'),
      from: isoDate.optional(),
      to: isoDate.optional(),
      limit,
    }),
  },
  {
    name: 'createInvoice',
    lazy: true,
    description: 'Creates a draft invoice for a customer. It is not sent until finalised.',
    input: z.object({
      customerId: id('Customer id', 'CUS-880'),
      lines: z
        .array(
          z.object({
            description: z.string().max(200).describe('What is billed.'),
            quantity: z.number().int().min(1).describe('Units.'),
            unitPrice: z.number().min(0).describe('Price per unit in the invoice currency.'),
          }),
        )
        .min(1)
        .max(50)
        .describe('Invoice lines.'),
      currency: z.enum(['USD', 'EUR', 'GBP']).describe('Invoice currency.'),
      dueDate: isoDate.describe('When payment is due.'),
    }),
  },
  {
    name: 'voidInvoice',
    lazy: true,
    description: 'Voids an open invoice so it can no longer be paid. Needs a reason for the audit log.',
    input: z.object({ invoiceId: id('Invoice id', 'INV-1042'), reason: z.string().min(3).max(300).describe('Why the invoice is voided.') }),
  },
  {
    name: 'refundPayment',
    lazy: true,
    description: 'Refunds a payment in full or in part to the original payment method.',
    input: z.object({
      paymentId: id('Payment id', 'PAY-3310'),
      amount: z.number().min(0.01).optional().describe('Amount to refund; the whole payment when left out.'),
      reason: z.enum(['duplicate', 'fraudulent', 'requested_by_customer']).describe('Why the payment is refunded.'),
    }),
  },
  {
    name: 'listPayments',
    lazy: true,
    description: 'Payments received from a customer with their method, amount and date, newest first.',
    input: z.object({ customerId: id('Customer id', 'CUS-880'), limit }),
  },

  // Subscriptions.
  {
    name: 'getSubscription',
    lazy: true,
    description: 'A subscription with its plan, price, billing interval, renewal date and status.',
    input: z.object({ subscriptionId: id('Subscription id', 'SUB-71') }),
  },
  {
    name: 'listSubscriptions',
    lazy: true,
    description: 'Subscriptions of the account or of one customer, filtered by status.',
    input: z.object({
      customerId: id('Customer id', 'CUS-880').optional(),
      status: z.enum(['active', 'trialing', 'past_due', 'paused', 'canceled']).optional().describe('Only subscriptions in this status.'),
    }),
  },
  {
    name: 'changePlan',
    lazy: true,
    description: 'Moves a subscription to another plan, with or without proration for the current period.',
    input: z.object({
      subscriptionId: id('Subscription id', 'SUB-71'),
      planId: id('Plan id', 'plan_team_annual'),
      prorate: z.boolean().describe('Charge or credit the difference for the current period.'),
    }),
  },
  {
    name: 'cancelSubscription',
    lazy: true,
    description: 'Cancels a subscription now or at the end of the period. Asks for the reason the customer gave.',
    input: z.object({
      subscriptionId: id('Subscription id', 'SUB-71'),
      atPeriodEnd: z.boolean().describe('Keep access until the period ends.'),
      reason: z.string().max(300).optional().describe('The reason the customer gave.'),
    }),
  },
  {
    name: 'pauseSubscription',
    lazy: true,
    description: 'Pauses billing for a subscription until a given date.',
    input: z.object({ subscriptionId: id('Subscription id', 'SUB-71'), resumeOn: isoDate.describe('The date billing resumes.') }),
  },
  {
    name: 'applyCoupon',
    lazy: true,
    description: 'Applies a coupon code to a subscription from its next invoice on.',
    input: z.object({
      subscriptionId: id('Subscription id', 'SUB-71'),
      couponCode: z.string().min(3).max(40).describe('The coupon code as the customer typed it.'),
    }),
  },
  {
    name: 'createCoupon',
    lazy: true,
    description: 'Creates a percentage coupon valid for a number of months.',
    input: z.object({
      code: z
        .string()
        .regex(/^[A-Z0-9_-]{3,24}$/)
        .describe('Upper-case code customers type.'),
      percentOff: z.number().min(1).max(100).describe('Discount in percent.'),
      durationMonths: z.number().int().min(1).max(36).describe('How many monthly invoices it applies to.'),
    }),
  },

  // Customers.
  {
    name: 'getCustomer',
    lazy: true,
    description: 'A customer record: name, email, address, tax id, balance and default payment method.',
    input: z.object({ customerId: id('Customer id', 'CUS-880') }),
  },
  {
    name: 'searchCustomers',
    lazy: true,
    description: 'Finds customers by name, email or company, best matches first.',
    input: z.object({ query: z.string().min(2).max(120).describe('Name, email or company.'), limit }),
  },
  {
    name: 'updateCustomerEmail',
    lazy: true,
    description: 'Changes the billing email of a customer; invoices go to the new address from now on.',
    input: z.object({ customerId: id('Customer id', 'CUS-880'), email: z.email().describe('The new billing email.') }),
  },
  {
    name: 'mergeCustomers',
    lazy: true,
    description: 'Merges a duplicate customer into another: invoices, payments and subscriptions move over.',
    input: z.object({ primaryId: id('Customer to keep', 'CUS-880'), duplicateId: id('Customer to merge and delete', 'CUS-881') }),
  },
  {
    name: 'addCustomerNote',
    lazy: true,
    description: 'Adds an internal note to a customer record, visible to the team only.',
    input: z.object({ customerId: id('Customer id', 'CUS-880'), note: z.string().min(1).max(2000).describe('The note.') }),
  },

  // Usage and limits.
  {
    name: 'getUsage',
    lazy: true,
    description: 'Metered usage of a subscription over a period, per day.',
    input: z.object({
      subscriptionId: id('Subscription id', 'SUB-71'),
      metric: z.enum(['api_calls', 'storage_gb', 'seats', 'emails_sent']).describe('What to measure.'),
      from: isoDate,
      to: isoDate,
    }),
  },
  {
    name: 'setUsageLimit',
    lazy: true,
    description: 'Sets a hard monthly limit on a metered metric; requests beyond it are refused.',
    input: z.object({
      subscriptionId: id('Subscription id', 'SUB-71'),
      metric: z.enum(['api_calls', 'storage_gb', 'emails_sent']).describe('The metered metric.'),
      limit: z.number().int().min(0).describe("Monthly limit in the metric's unit."),
    }),
  },

  // Team and security.
  {
    name: 'listTeamMembers',
    lazy: true,
    description: 'Members of the account with their role and when they last signed in.',
    input: z.object({ accountId: id('Account id', 'ACC-2201').optional() }),
  },
  {
    name: 'inviteTeamMember',
    lazy: true,
    description: 'Invites someone to the account by email with a role.',
    input: z.object({
      email: z.email().describe('Who to invite.'),
      role: z.enum(['owner', 'admin', 'billing', 'member', 'viewer']).describe('Their role once they accept.'),
    }),
  },
  {
    name: 'removeTeamMember',
    lazy: true,
    description: 'Removes a member from the account; their sessions end at once.',
    input: z.object({ userId: id('User id', 'USR-19') }),
  },
  {
    name: 'resetPassword',
    lazy: true,
    description: 'Sends a password reset link to a user.',
    input: z.object({ userId: id('User id', 'USR-19') }),
  },
  {
    name: 'enableTwoFactor',
    lazy: true,
    description: 'Requires two-factor sign-in for a user with the given method.',
    input: z.object({ userId: id('User id', 'USR-19'), method: z.enum(['totp', 'sms', 'webauthn']).describe('The second factor.') }),
  },
  {
    name: 'listApiKeys',
    lazy: true,
    description: 'API keys of the account with their label, scopes, creation date and last use.',
    input: z.object({}),
  },
  {
    name: 'rotateApiKey',
    lazy: true,
    description: 'Replaces an API key with a new one; the old key stops working after a grace period.',
    input: z.object({
      keyId: id('Key id', 'KEY-4'),
      graceHours: z.number().int().min(0).max(168).optional().describe('Hours the old key keeps working (default 24).'),
    }),
  },
  {
    name: 'getAuditLog',
    lazy: true,
    description: 'Security and billing events of the account in a period, optionally for one actor.',
    input: z.object({ from: isoDate, to: isoDate, actor: id('User id', 'USR-19').optional() }),
  },
  {
    name: 'exportData',
    lazy: true,
    description: 'Starts an export of account data and emails a download link when it is ready.',
    input: z.object({
      format: z.enum(['csv', 'json']).describe('File format.'),
      datasets: z
        .array(z.enum(['invoices', 'payments', 'customers', 'subscriptions', 'usage']))
        .min(1)
        .describe('What to export.'),
    }),
  },

  // Communication and tickets.
  {
    name: 'scheduleCall',
    lazy: true,
    description: 'Books a call with a customer on a date and time in their time zone.',
    input: z.object({
      customerId: id('Customer id', 'CUS-880'),
      date: isoDate,
      time: z
        .string()
        .regex(/^([01]\d|2[0-3]):[0-5]\d$/)
        .describe('Local time, HH:MM.'),
      durationMinutes: z.number().int().min(15).max(120).describe('Length of the call.'),
    }),
  },
  {
    name: 'sendEmail',
    lazy: true,
    description: 'Sends an email to a customer from the support address.',
    input: z.object({
      to: z.email().describe('Recipient.'),
      subject: z.string().min(1).max(150).describe('Subject line.'),
      body: z.string().min(1).max(10_000).describe('Plain-text body.'),
    }),
  },
  {
    name: 'translateText',
    lazy: true,
    description: 'Translates a text into another language, keeping product names as they are.',
    input: z.object({
      text: z.string().min(1).max(5000).describe('The text.'),
      targetLanguage: z
        .string()
        .regex(/^[a-z]{2}$/)
        .describe('ISO 639-1 code, e.g. "de".'),
    }),
  },
  {
    name: 'summarizeTicket',
    lazy: true,
    description: 'Summarises a long ticket thread in a few sentences for a hand-over.',
    input: z.object({
      ticketId: id('Ticket id', 'TCK-5521'),
      maxWords: z.number().int().min(20).max(300).optional().describe('Longest summary (default 80 words).'),
    }),
  },
  {
    name: 'escalateTicket',
    lazy: true,
    description: 'Escalates a ticket to a specialist team with a note on what was tried.',
    input: z.object({
      ticketId: id('Ticket id', 'TCK-5521'),
      team: z.enum(['billing', 'engineering', 'security', 'account_management']).describe('Who takes it over.'),
      note: z.string().min(1).max(2000).describe('What was tried so far.'),
    }),
  },
  {
    name: 'getServiceStatus',
    lazy: true,
    description: 'Current status of the service and open incidents, overall or for one region.',
    input: z.object({ region: z.enum(['us', 'eu', 'apac']).optional().describe('Only this region.') }),
  },
];

/** The catalog as server tools: each echoes what it was called with. */
export const smallCatalog: AnyTool[] = specs.map((spec) =>
  toolDefinition({ name: spec.name, description: spec.description, inputSchema: spec.input, ...(spec.lazy ? { lazy: true } : {}) }).server(
    async (input: unknown) => ({
      ok: true,
      tool: spec.name,
      input,
    }),
  ),
);
