import type { Message } from '@ag-ui/core';
import { keepStoredTokenCount } from '../model/tokens.js';
import { markStored } from '../history/storedMessages.js';
import type { StoredMessage, ThreadSummary } from './threadStore.js';

/** A `chatwire_threads` row as lists show it. */
export interface ThreadRow {
  id: string;
  title: string;
  created_at: Date | string;
  updated_at: Date | string;
}

/** A `chatwire_threads` row with its active leaf. */
export type ActiveThreadRow = ThreadRow & { active_leaf: string | null };

/** A `chatwire_messages` row. */
export interface MessageRow {
  id: string;
  parent_id: string | null;
  seq: string | number;
  message: Message | string;
  /** The message's token count as stored with it (`null` for rows stored before counts were: see THREAD_MIGRATIONS). */
  tokens: unknown;
}

const iso = (value: Date | string) => new Date(value).toISOString();

/** A thread row as lists show it (ISO 8601 times). */
export const summaryOf = (row: ThreadRow): ThreadSummary => ({
  id: row.id,
  title: row.title,
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
});

/** A JSON column's value: PostgreSQL's `pg` and PGlite parse `json` columns, text parameters come back as text. */
export const parsed = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

/** A row as a stored message: frozen and marked stored, with the token count stored beside it (see tokens.ts). */
export function storedOf(row: MessageRow): StoredMessage {
  const message = markStored(parsed(row.message));
  if (row.tokens !== null && row.tokens !== undefined) keepStoredTokenCount(message, parsed(row.tokens));
  return { message, parentId: row.parent_id, seq: Number(row.seq) };
}
