import type { Message } from '@ag-ui/core';

/*
 * Messages a thread store handed out: each was checked (shape, ids, attachments, signatures) by the
 * request that stored it, or is the server's own output, so a request that continues it does not
 * check it again. Only a store marks a message: a request's own messages are other objects and are
 * never taken for stored ones (an id proves nothing).
 */

const stored = new WeakSet<object>();

function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child);
}

/** Marks a message a thread store read or wrote as stored (frozen: it is shared, and never changes). */
export function markStored<T extends Message>(message: T): T {
  deepFreeze(message);
  stored.add(message);
  return message;
}

/** Whether a message came from a thread store (see {@link markStored}). */
export const isStoredMessage = (message: unknown): boolean => typeof message === 'object' && message !== null && stored.has(message);
