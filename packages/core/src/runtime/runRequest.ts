import type { Context, Message as WireMessage, RunAgentInput, Tool as WireTool } from '@ag-ui/core';
import type { ChatMessage } from '../model/messages.js';
import type { ChatStore } from './chatStore.js';
import type { ClientDiscovery } from '../discovery/clientManaged.js';
import type { ChatConnection } from '../transport/connection.js';
import type { CustomEventExtension } from '../reduce/customEvents.js';
import type { DataPartSchemas } from '../reduce/dataParts.js';
import { resumeOf } from '../model/continuation.js';
import { discoveredToolsInChat } from '../discovery/discoveredTools.js';
import { appendWireMessages, toWireMessages } from '../model/wireMessages.js';
import { toWireTool, type AnyTool } from '../tools/toolDefinition.js';
import { batchReader } from '../transport/eventBatches.js';

/** How reading one run ended. */
export type RunEnding = 'finished' | 'error' | 'gone';

/**
 * Automatic reconnection to a resumable run whose connection dropped (only on a server that
 * announced resumable streams): up to `attempts` tries, the first after `delayMs`, each later one
 * after twice the previous wait, at most `maxDelayMs`. Reading events again restores the budget.
 */
export interface ReconnectOptions {
  /** Tries after one drop. Defaults to 5. */
  readonly attempts?: number;
  /** The wait before the first try, in milliseconds. Defaults to 500. */
  readonly delayMs?: number;
  /** The longest wait between tries, in milliseconds. Defaults to 5,000. */
  readonly maxDelayMs?: number;
}

/**
 * The frontend tools of the next request, cached while the tool list and the discovered set stay
 * the same (a continuation usually sends exactly what the previous request sent).
 */
export class WireToolList {
  #cache:
    | {
        readonly tools: readonly AnyTool[] | undefined;
        readonly managed: ClientDiscovery | undefined;
        readonly key: string;
        readonly wire: WireTool[];
      }
    | undefined;

  /** The tools to announce: all of them, or (client-managed discovery) eager + discovery tool + discovered. */
  get(
    tools: readonly AnyTool[] | undefined,
    managed: ClientDiscovery | undefined,
    messages: Parameters<typeof discoveredToolsInChat>[0],
  ): WireTool[] {
    const discovered = managed ? discoveredToolsInChat(messages) : [];
    const key = discovered.join('\u0000');
    const cached = this.#cache;
    if (cached && cached.tools === tools && cached.managed === managed && cached.key === key) return cached.wire;
    const wire = managed ? managed.wireTools(tools ?? [], discovered) : (tools ?? []).map(toWireTool);
    this.#cache = { tools, managed, key, wire };
    return wire;
  }
}

/** The reader's chunk, once loaded. */
let reader: typeof import('./readRunEvents.js') | undefined;

/** Loads the reader's chunk (with the first request, or the first turns a chat restores; one `import()` for both). */
export const loadReader = async (): Promise<typeof import('./readRunEvents.js')> => (reader ??= await import('./readRunEvents.js'));

/**
 * Which messages a request carries: `stored` (the default), the messages from the last one the
 * thread's server stored on (`ChatState.storedMessageId`) while that one is in the chat, else all of
 * them; `full`, always all of them.
 */
export type HistoryMode = 'stored' | 'full';

/**
 * The AG-UI messages of the next request: every message of the chat, or (`from`, a stored message's
 * id) the messages from that one on when it is among them.
 */
export function wireHistory(messages: readonly ChatMessage[], from?: string): WireMessage[] {
  // Once the reader's chunk has loaded (from the second request on), each message is converted once in its life.
  if (reader) return reader.requestMessages(messages, appendWireMessages, from);
  const wire = toWireMessages(messages);
  const at = from === undefined ? -1 : wire.findLastIndex((message) => message.id === from);
  return at > 0 ? wire.slice(at) : wire;
}

/** The run input of the next request, built from the snapshot (messages, resume entries) and the send's own `body`. */
export function buildRunInput(options: {
  readonly store: ChatStore;
  readonly runId: string;
  readonly tools: WireTool[];
  readonly context: readonly Context[] | undefined;
  /** The options of the send that started the turn. */
  readonly send: { readonly body?: Record<string, unknown>; readonly context?: readonly Context[] } | undefined;
  /** Which messages to send (see {@link HistoryMode}). Defaults to `stored`. */
  readonly history?: HistoryMode | undefined;
}): RunAgentInput {
  const snapshot = options.store.getSnapshot();
  const { resume, parentRunId } = resumeOf(snapshot);
  return {
    threadId: snapshot.id,
    runId: options.runId,
    protocolVersion: '1.0',
    ...(parentRunId === undefined ? {} : { parentRunId }),
    messages: wireHistory(snapshot.messages, options.history === 'full' ? undefined : snapshot.storedMessageId),
    tools: options.tools,
    context: [...(options.context ?? []), ...(options.send?.context ?? [])],
    state: snapshot.agentState ?? {},
    forwardedProps: { ...options.send?.body },
    ...(resume.length > 0 ? { resume } : {}),
  };
}

/** The options of one reading of a run (see {@link readRun}). */
export interface RunReading {
  readonly store: ChatStore;
  /**
   * The client's options: its `connection`, its `dataParts` (declared CUSTOM events become `data`
   * parts), its `customEvents` (extensions' CUSTOM events) and `reconnect`.
   */
  readonly client: {
    readonly connection: ChatConnection;
    readonly dataParts?: DataPartSchemas | undefined;
    readonly customEvents?: readonly CustomEventExtension[] | undefined;
    readonly reconnect?: ReconnectOptions | false | undefined;
  };
  readonly input: RunAgentInput;
  readonly signal: AbortSignal;
  /** The options of the send that started the turn: its own headers go to the connection. */
  readonly send: { readonly headers?: Record<string, string> } | undefined;
  /** Read the snapshot's active run again (`resumeStream()`) instead of starting `input`. */
  readonly resuming?: boolean;
  readonly warn: (message: string) => void;
  readonly isCurrent: () => boolean;
  /** A CUSTOM event was applied. */
  readonly onCustomEvent: (event: { readonly name: string; readonly value: unknown; readonly runId: string }) => void;
  /** The request's `RUN_STARTED` was applied. */
  readonly onRunStarted?: () => void;
  /**
   * The reading went stale (the turn was stopped) while `signal` was left open: called, when the next
   * event arrives (not applied), with the resume token it carries when it is a `RUN_STARTED` with one,
   * and the stream, which it then owns and closes. Returns whether it took it; if not (or without it)
   * the stream is closed here.
   */
  readonly onStale?: (token: string | undefined, stream: AsyncIterator<unknown>) => boolean;
}

/**
 * Reads one request's events into the store. Resolves how its (last) run ended (`gone`: a run to
 * resume that the server no longer has); throws a `ChatwireError` when the transport or the stream
 * fails, including a stream that ends before its run does and one that breaks the run lifecycle.
 * Stops quietly, resolving `undefined`, once `isCurrent()` turns false or the request is aborted.
 * The request starts at once; the reader (event checks, reducers, reconnection) loads meanwhile.
 */
export async function readRun(options: RunReading): Promise<RunEnding | undefined> {
  const { store, input, signal } = options;
  const stream = options.resuming
    ? undefined
    : options.client.connection.run(input, { signal, headers: options.send?.headers, resumeToken: store.getSnapshot().resumeToken });
  const events = stream?.[Symbol.asyncIterator]();
  // Read a batch at a time (one network read's events, when the connection offers them so).
  const first = events && batchReader(events)();
  // Read (and its failure handled) by the reader once it has loaded.
  first?.catch(() => {});
  return (await loadReader()).readRunEvents(options, events, first);
}
