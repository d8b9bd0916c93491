import type { Event as WireEvent, RunAgentInput } from '@ag-ui/core';
import { CHATWIRE_EVENTS, type ModelCallUsage, type ToolCatalogEntry } from '../protocol/chatwireProtocol.js';
import { readModelCallUsage } from '../protocol/protocolReaders.js';
import { addModelCall, type ConversationUsage } from '../model/conversationUsage.js';
import type { ChatStatus, TurnRecord } from '../model/chatState.js';
import type { ChatMessage } from '../model/messages.js';
import type { HistoryTurn, RecordedActions } from './eventHistory.js';

/** The `format` of a {@link ChatRecord} file. */
export const CHAT_RECORD_FORMAT = 'chatwire.chat-record';

/** The largest record file devtools opens, in characters (a record is JSON text). */
export const MAX_CHAT_RECORD_CHARS = 50 * 1024 * 1024;

/** The chat's snapshot when a turn settled: what devtools shows for it. */
export interface RecordedSnapshot {
  readonly at: number;
  readonly status: ChatStatus;
  readonly messages: readonly ChatMessage[];
  readonly turns: readonly TurnRecord[];
  readonly conversationUsage?: ConversationUsage;
  /** The chat's error then, as its code and message. */
  readonly error?: { readonly code: string; readonly message: string };
}

/**
 * A chat's record, as a file: its events (per turn, with each run's request), its snapshot history
 * and its token accounting. Devtools saves one for the chat it shows and opens one to inspect it the
 * same way; a server writes one per run when asked (`runRecords`), without snapshots (devtools
 * rebuilds the messages from the events).
 */
export interface ChatRecord {
  readonly format: typeof CHAT_RECORD_FORMAT;
  readonly version: 1;
  /** Who wrote it: devtools (a whole chat as the browser saw it) or a server (one run). */
  readonly source: 'devtools' | 'server';
  /** When it was written (ISO 8601). */
  readonly savedAt: string;
  /** The chat (AG-UI thread) id. */
  readonly chatId: string;
  /** The turns' requests and events, oldest first. */
  readonly history: readonly HistoryTurn[];
  /** The snapshot each time the chat settled, oldest first (none in a server's record). */
  readonly snapshots: readonly RecordedSnapshot[];
  /** Token accounting: each turn's model calls, and the conversation's discovery economics. */
  readonly accounting: { readonly turns: readonly TurnRecord[]; readonly conversationUsage?: ConversationUsage };
  /** The server's tool catalog when the record was saved (devtools records it when it had one). */
  readonly catalog?: readonly ToolCatalogEntry[];
  /**
   * The store's actions devtools recorded, with the state before the first (time travel). As JSON
   * data: a chat error is its `name`, `code`, `message` and `status`, and the chat's resume token is
   * left out. Absent in a server's record and in records saved before devtools recorded actions.
   */
  readonly actions?: RecordedActions;
}

/** The outcome of {@link readChatRecord}. */
export type ChatRecordReading = { readonly ok: true; readonly record: ChatRecord } | { readonly ok: false; readonly error: string };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Reads a record file's text: JSON in the {@link ChatRecord} shape, or a sentence saying what is
 * wrong with it (nothing in it is trusted further than its shape; devtools renders it as text).
 *
 * @example
 * ```ts
 * const reading = readChatRecord(await file.text());
 * if (!reading.ok) show(reading.error);
 * ```
 */
export function readChatRecord(text: string): ChatRecordReading {
  if (text.length > MAX_CHAT_RECORD_CHARS)
    return { ok: false, error: `The file is ${text.length} characters long; a chat record is at most ${MAX_CHAT_RECORD_CHARS}.` };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: 'The file is not JSON: a chat record is the JSON file devtools or the server saved.' };
  }
  if (!isRecord(value) || value['format'] !== CHAT_RECORD_FORMAT)
    return { ok: false, error: `The file is not a chat record (its "format" is not "${CHAT_RECORD_FORMAT}").` };
  if (value['version'] !== 1)
    return { ok: false, error: `This chat record's version (${JSON.stringify(value['version'])}) is not one this devtools reads (1).` };
  if (typeof value['chatId'] !== 'string' || typeof value['savedAt'] !== 'string')
    return { ok: false, error: 'The chat record has no "chatId" or "savedAt".' };
  const history = value['history'];
  if (!Array.isArray(history) || !history.every((turn) => isRecord(turn) && Array.isArray(turn['events']) && Array.isArray(turn['runs'])))
    return { ok: false, error: 'The chat record\'s "history" is not a list of turns with "runs" and "events".' };
  const eventsOk = (history as Record<string, unknown>[]).every((turn) =>
    (turn['events'] as unknown[]).every(
      (entry) => isRecord(entry) && isRecord(entry['event']) && typeof entry['event']['type'] === 'string',
    ),
  );
  if (!eventsOk) return { ok: false, error: 'An event of the chat record is not an AG-UI event (an object with a string "type").' };
  const snapshots = value['snapshots'];
  if (
    !Array.isArray(snapshots) ||
    !snapshots.every((snapshot) => isRecord(snapshot) && Array.isArray(snapshot['messages']) && Array.isArray(snapshot['turns']))
  )
    return { ok: false, error: 'The chat record\'s "snapshots" is not a list of snapshots with "messages" and "turns".' };
  const accounting = value['accounting'];
  if (!isRecord(accounting) || !Array.isArray(accounting['turns']))
    return { ok: false, error: 'The chat record has no "accounting" with "turns".' };
  const actions = value['actions'];
  if (actions !== undefined && !isActionLog(actions))
    return {
      ok: false,
      error:
        'The chat record\'s "actions" is not a starting state (with "messages" and "turns") and a list of actions (each with a number "at" and an "action" with a string "type").',
    };
  return { ok: true, record: value as unknown as ChatRecord };
}

/** Whether a record's `actions` has the shape of {@link RecordedActions}. */
function isActionLog(value: unknown): boolean {
  if (!isRecord(value) || typeof value['folded'] !== 'number') return false;
  const initial = value['initial'];
  if (!isRecord(initial) || !Array.isArray(initial['messages']) || !Array.isArray(initial['turns'])) return false;
  const list = value['actions'];
  return (
    Array.isArray(list) &&
    list.every(
      (entry) =>
        isRecord(entry) && typeof entry['at'] === 'number' && isRecord(entry['action']) && typeof entry['action']['type'] === 'string',
    )
  );
}

/** The model-call accounting a run's events carry (`chatwire.model_call_usage`), checked. */
function modelCallsIn(events: readonly WireEvent[]): ModelCallUsage[] {
  return events.flatMap((event) =>
    event.type === 'CUSTOM' && event.name === CHATWIRE_EVENTS.modelCallUsage ? (readModelCallUsage(event.value) ?? []) : [],
  );
}

/**
 * The record of one server run: its request, its events (with the time each passed) and its
 * accounting (core's `addModelCall` over the run's model calls, as the client sums them).
 */
export function runRecord(run: {
  readonly input: RunAgentInput;
  readonly startedAt: number;
  readonly events: readonly { readonly at: number; readonly event: WireEvent }[];
}): ChatRecord {
  const { input, startedAt } = run;
  const modelCalls = modelCallsIn(run.events.map(({ event }) => event));
  const turn: TurnRecord = { id: input.runId, startedAt, modelCalls };
  const conversationUsage = modelCalls.reduce<ConversationUsage | undefined>(addModelCall, undefined);
  return {
    format: CHAT_RECORD_FORMAT,
    version: 1,
    source: 'server',
    savedAt: new Date().toISOString(),
    chatId: input.threadId,
    history: [
      {
        id: input.runId,
        startedAt,
        runs: [{ at: startedAt, runId: input.runId, input }],
        events: run.events.map(({ at, event }) => ({ at, runId: input.runId, event })),
        dropped: 0,
      },
    ],
    snapshots: [],
    accounting: { turns: [turn], ...(conversationUsage ? { conversationUsage } : {}) },
  };
}
