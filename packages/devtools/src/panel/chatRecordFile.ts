import { TOOL_PROGRESS_EVENT, type ChatClient, type ChatSnapshot } from '@chatwire/core';
import {
  CHAT_RECORD_FORMAT,
  initialChatState,
  type ChatRecord,
  type HistoryRecorder,
  type HistoryTurn,
  type RecordedActions,
  type RecordedSnapshot,
  type ToolCatalogEntry,
} from '@chatwire/core/shared';
import { fromWireMessages, parseWireEvent, reduceWireEvent } from '@chatwire/core/wire';
import type { PartialToolCatalogEntry } from '../viewModel/index.js';
import { recordableActions, revivedActions } from '../viewModel/timeTravel.js';

/** A snapshot as a record keeps it: JSON data only (the error as its code and message). */
function recordedSnapshot(at: number, snapshot: ChatSnapshot): RecordedSnapshot {
  const { status, messages, turns, conversationUsage, error } = snapshot;
  return {
    at,
    status,
    messages,
    turns,
    ...(conversationUsage ? { conversationUsage } : {}),
    ...(error ? { error: { code: error.code, message: error.message } } : {}),
  };
}

/** The record of the chat devtools shows: its recorded events and store actions, its settled snapshots and the current one, its accounting. */
export function chatRecordOf(
  client: ChatClient,
  recorder: HistoryRecorder | undefined,
  catalog: readonly PartialToolCatalogEntry[] | undefined,
): ChatRecord {
  const current = client.getSnapshot();
  const settled = (recorder?.snapshots() ?? []).map(({ at, snapshot }) => recordedSnapshot(at, snapshot));
  const last = settled.at(-1);
  const actions = recorder?.actions();
  // The chat as it is now closes the history, unless the last settled snapshot is it already.
  const snapshots =
    last && last.messages === current.messages && last.status === current.status
      ? settled
      : [...settled, recordedSnapshot(Date.now(), current)];
  return {
    format: CHAT_RECORD_FORMAT,
    version: 1,
    source: 'devtools',
    savedAt: new Date().toISOString(),
    chatId: client.id,
    history: recorder?.turns() ?? [],
    snapshots,
    accounting: { turns: current.turns, ...(current.conversationUsage ? { conversationUsage: current.conversationUsage } : {}) },
    ...(catalog ? { catalog: catalog as ToolCatalogEntry[] } : {}),
    ...(actions ? { actions: recordableActions(actions) } : {}),
  };
}

/** A file name for a chat's record: `chatwire-<chat id>-<time>.json`, with only safe characters. */
function recordFileName(record: ChatRecord): string {
  const id = record.chatId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 60);
  const time = record.savedAt.replace(/[:.]/g, '-');
  return `chatwire-${id}-${time}.json`;
}

/** Offers the record as a JSON file download. */
export function downloadChatRecord(record: ChatRecord): void {
  const url = URL.createObjectURL(new Blob([JSON.stringify(record)], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = recordFileName(record);
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** What the panel shows for an opened record: the same inputs as for a live chat. */
export interface RecordView {
  readonly snapshot: ChatSnapshot;
  readonly history: readonly HistoryTurn[];
  readonly catalog: readonly PartialToolCatalogEntry[] | undefined;
  readonly dataParts: readonly string[];
  /** The store's actions the record holds (time travel), their errors made `ChatwireError`s again. */
  readonly actions: RecordedActions | undefined;
}

/**
 * The panel's inputs from a record: its last snapshot, or (a server's run record has none) the
 * messages rebuilt with the client's own reducer from the run's request and events.
 */
export function viewOfRecord(record: ChatRecord): RecordView {
  const last = record.snapshots.at(-1);
  const base = last
    ? { ...initialChatState(last.messages), status: last.status, turns: last.turns }
    : { ...initialChatState(rebuiltMessages(record.history)), turns: record.accounting.turns };
  const conversationUsage = last?.conversationUsage ?? record.accounting.conversationUsage;
  const snapshot: ChatSnapshot = { ...base, id: record.chatId, ...(conversationUsage ? { conversationUsage } : {}) };
  return {
    snapshot,
    history: record.history,
    catalog: record.catalog,
    dataParts: [TOOL_PROGRESS_EVENT],
    actions: record.actions ? revivedActions(record.actions) : undefined,
  };
}

function rebuiltMessages(history: readonly HistoryTurn[]) {
  const first = history[0]?.runs[0];
  let state = initialChatState(first ? fromWireMessages(first.input.messages ?? [], first.at) : []);
  for (const turn of history)
    for (const { at, event } of turn.events) {
      try {
        const parsed = parseWireEvent(event);
        if (parsed.known) state = reduceWireEvent(state, parsed.event, at).state;
      } catch {
        // An event the reducer refuses is left out of the rebuilt messages; the Events view still lists it.
      }
    }
  return state.messages;
}
