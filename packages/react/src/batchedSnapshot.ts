import type { ChatClient, ChatSnapshot } from '@chatwire/core';

/**
 * How renders follow the stream: `frame` (default) coalesces changes into one render per animation
 * frame; `none` renders every change; `{ throttleMs }` renders at most once per interval. Status and
 * error changes are always delivered at once.
 */
export type RenderBatching = 'frame' | 'none' | { readonly throttleMs: number };

/** A view of a client's snapshot that publishes changes in batches; what `useSyncExternalStore` reads. */
export interface BatchedView {
  readonly subscribe: (listener: () => void) => () => void;
  readonly getSnapshot: () => ChatSnapshot;
  /** Of two snapshots this view published (either way), the one published last; `b` when `a` is missing. */
  readonly newest: (a: ChatSnapshot, b: ChatSnapshot | undefined) => ChatSnapshot;
}

type Cancel = () => void;

function schedule(batching: RenderBatching, flush: () => void): Cancel {
  if (batching !== 'frame') {
    const timer = setTimeout(flush, typeof batching === 'object' ? batching.throttleMs : 0);
    return () => clearTimeout(timer);
  }
  if (typeof requestAnimationFrame === 'function') {
    const frame = requestAnimationFrame(flush);
    return () => cancelAnimationFrame(frame);
  }
  const timer = setTimeout(flush, 16);
  return () => clearTimeout(timer);
}

/**
 * Creates a batched view of `client`. The published snapshot only changes when listeners are
 * notified, so React never sees a snapshot newer than the one it rendered (no tearing), and a late
 * subscriber catches up with anything that changed before it subscribed.
 *
 * With `deferred`, batched changes (streamed content) go to `deferred` instead of the listeners, for
 * the caller to publish as a transition (`useChat` does), while status and error changes, and every
 * change under `none`, still publish at once through `getSnapshot`. `newest` tells which is later.
 */
export function createBatchedView(
  client: ChatClient,
  batching: () => RenderBatching,
  deferred?: (snapshot: ChatSnapshot) => void,
): BatchedView {
  let published = client.getSnapshot();
  let latest = published;
  // The order snapshots were published in, across both channels.
  const order = new WeakMap<ChatSnapshot, number>([[published, 0]]);
  let count = 0;
  return {
    getSnapshot: () => published,
    newest: (a, b) => (b !== undefined && (order.get(b) ?? -1) > (order.get(a) ?? -1) ? b : a),
    subscribe(listener) {
      let cancel: Cancel | undefined;
      const flush = (urgent: boolean) => {
        cancel = undefined;
        const next = client.getSnapshot();
        if (next === (urgent ? published : latest)) return;
        latest = next;
        order.set(next, ++count);
        if (deferred && !urgent) return deferred(next);
        published = next;
        listener();
      };
      const onChange = () => {
        const next = client.getSnapshot();
        const mode = batching();
        if (mode === 'none' || next.status !== published.status || next.error !== published.error) {
          cancel?.();
          flush(true);
        } else {
          cancel ??= schedule(mode, () => flush(false));
        }
      };
      const unsubscribe = client.subscribe(onChange);
      // Chunks that landed between render and subscribe must not be lost.
      if (client.getSnapshot() !== published) flush(true);
      return () => {
        cancel?.();
        unsubscribe();
      };
    },
  };
}
