import { generateReport, getSalesReport, getTopProducts, getTrafficStats } from '../../shared/catalog.ts';
import { hash, round2, PRODUCTS, productFor } from './demoData.ts';
import type { Latency } from './latency.ts';

/** Server implementations of the analytics and reports tools. */
export function analyticsTools(slow: Latency) {
  return [
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
