import { cancelOrder, getOrder, listOrders, refundOrder, updateShippingAddress } from '../../shared/catalog.ts';
import { hash, pick, round2, TODAY, addDays, PRODUCTS } from './demoData.ts';
import type { Latency } from './latency.ts';

const ORDER_STATUSES = ['processing', 'shipped', 'delivered', 'delivered', 'shipped'] as const;

function orderFor(orderId: string) {
  const status = pick(ORDER_STATUSES, orderId);
  const first = pick(PRODUCTS, orderId, 'a');
  const second = pick(PRODUCTS, orderId, 'b');
  const items = [
    { productId: first.id, name: first.name, quantity: 1 + (hash(orderId) % 2), price: first.price },
    ...(second.id !== first.id && hash(orderId) % 3 === 0
      ? [{ productId: second.id, name: second.name, quantity: 1, price: second.price }]
      : []),
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

/** Server implementations of the orders tools. */
export function orderTools(slow: Latency) {
  return [
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
        return {
          orderId,
          cancelled: true,
          reason: reason ?? 'other',
          releasedAmount: order.total,
          currency: order.currency,
          test: orderId.startsWith('TEST-'),
        };
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
  ] as const;
}
