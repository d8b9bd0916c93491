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
 */
export function createBatchedView(client: ChatClient, batching: () => RenderBatching): BatchedView {
  let published = client.getSnapshot();
  return {
    getSnapshot: () => published,
    subscribe(listener) {
      let cancel: Cancel | undefined;
      const flush = () => {
        cancel = undefined;
        const next = client.getSnapshot();
        if (next === published) return;
        published = next;
        listener();
      };
      const onChange = () => {
        const next = client.getSnapshot();
        const mode = batching();
        if (mode === 'none' || next.status !== published.status || next.error !== published.error) {
          cancel?.();
          flush();
        } else {
          cancel ??= schedule(mode, flush);
        }
      };
      const unsubscribe = client.subscribe(onChange);
      // Chunks that landed between render and subscribe must not be lost.
      if (client.getSnapshot() !== published) flush();
      return () => {
        cancel?.();
        unsubscribe();
      };
    },
  };
}
