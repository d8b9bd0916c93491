import { z } from 'zod';
import { toolDefinition } from '@chatwire/core';
import { isoDate } from './fields.ts';

/* The demo catalog: Analytics and reports (server). */

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
