/** Where a thread list page starts: after the thread with this activity time and id. */
export interface ThreadCursor {
  /** Milliseconds since the epoch. */
  readonly updatedAt: number;
  readonly id: string;
}

/** An opaque cursor (base64url of `updatedAt:id`). */
export const encodeCursor = (cursor: ThreadCursor): string => Buffer.from(`${cursor.updatedAt}:${cursor.id}`).toString('base64url');

/** Reads a cursor made by {@link encodeCursor}; throws {@link InvalidCursorError} for anything else. */
export function decodeCursor(text: string): ThreadCursor {
  const decoded = text.length <= 512 ? Buffer.from(text, 'base64url').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  const updatedAt = Number(decoded.slice(0, colon));
  if (colon < 1 || !Number.isSafeInteger(updatedAt) || colon === decoded.length - 1) throw new InvalidCursorError();
  return { updatedAt, id: decoded.slice(colon + 1) };
}

/** A cursor that no page gave out. */
export class InvalidCursorError extends Error {
  override readonly name = 'InvalidCursorError';
  constructor() {
    super('The cursor is not one a thread list page gave out.');
  }
}
