import type { Context, Event as WireEvent, EventType, RunAgentInput, Tool as WireTool } from '@ag-ui/core';
import type { Phase } from '../wire/runLifecycle.js';
import type { ChatStore } from './chatStore.js';
import type { ClientDiscovery } from '../discovery/clientManaged.js';
import type { ChatConnection } from '../wire/connection.js';
import type { DataPartSchemas } from '../wire/dataParts.js';
import { resumeOf } from './continuation.js';
import { discoveredToolsInChat } from '../discovery/discoveredTools.js';
import { ChatwireError } from '../errors.js';
import { toWireMessages } from './messages.js';
import { toWireTool, type AnyTool } from '../tools/toolDefinition.js';

/** How reading one run ended. */
export type RunEnding = 'finished' | 'error';

/**
 * The frontend tools of the next request, cached while the tool list and the discovered set stay
 * the same (a continuation usually sends exactly what the previous request sent).
 */
export class WireToolList {
  #cache:
    | { readonly tools: readonly AnyTool[] | undefined; readonly managed: ClientDiscovery | undefined; readonly key: string; readonly wire: WireTool[] }
    | undefined;

  /** The tools to announce: all of them, or (client-managed discovery) eager + discovery tool + discovered. */
  get(tools: readonly AnyTool[] | undefined, managed: ClientDiscovery | undefined, messages: Parameters<typeof discoveredToolsInChat>[0]): WireTool[] {
    const discovered = managed ? discoveredToolsInChat(messages) : [];
    const key = discovered.join('\u0000');
    const cached = this.#cache;
    if (cached && cached.tools === tools && cached.managed === managed && cached.key === key) return cached.wire;
    const wire = managed ? managed.wireTools(tools ?? [], discovered) : (tools ?? []).map(toWireTool);
    this.#cache = { tools, managed, key, wire };
    return wire;
  }
}

/** The run input of the next request, built from the snapshot (messages, resume entries) and the send's own `body`. */
export function buildRunInput(options: {
  readonly store: ChatStore;
  readonly runId: string;
  readonly tools: WireTool[];
  readonly context: readonly Context[] | undefined;
  /** The options of the send that started the turn. */
  readonly send: { readonly body?: Record<string, unknown>; readonly context?: readonly Context[] } | undefined;
}): RunAgentInput {
  const snapshot = options.store.getSnapshot();
  const { resume, parentRunId } = resumeOf(snapshot);
  return {
    threadId: snapshot.id,
    runId: options.runId,
    protocolVersion: '1.0',
    ...(parentRunId === undefined ? {} : { parentRunId }),
    messages: toWireMessages(snapshot.messages),
    tools: options.tools,
    context: [...(options.context ?? []), ...(options.send?.context ?? [])],
    state: snapshot.agentState ?? {},
    forwardedProps: { ...options.send?.body },
    ...(resume.length > 0 ? { resume } : {}),
  };
}

/**
 * Reads one request's events into the store. Resolves how its (last) run ended; throws a
 * `ChatwireError` when the transport or the stream fails, including a stream that ends before its
 * run does and one that breaks the run lifecycle. Stops quietly, resolving `undefined`, once
 * `isCurrent()` turns false or the request is aborted.
 */
export async function readRun(options: {
  readonly store: ChatStore;
  /** The client's options: its `connection`, and its `dataParts` (declared CUSTOM events become `data` parts). */
  readonly client: { readonly connection: ChatConnection; readonly dataParts?: DataPartSchemas | undefined };
  readonly input: RunAgentInput;
  readonly signal: AbortSignal;
  /** The options of the send that started the turn: its own headers go to the connection. */
  readonly send: { readonly headers?: Record<string, string> } | undefined;
  readonly warn: (message: string) => void;
  readonly isCurrent: () => boolean;
  /** An event type AG-UI 1.0 does not define arrived (it is skipped). */
  readonly onUnknown: (type: string) => void;
  /** A CUSTOM event was applied. */
  readonly onCustomEvent: (event: { readonly name: string; readonly value: unknown; readonly runId: string }) => void;
}): Promise<RunEnding | undefined> {
  const { store, input, signal } = options;
  // Event checks, chunk expansion and the event reducer load while the request is under way (off the app's initial load, no wait).
  const wire = import('../wire/index.js');
  let expand: ReturnType<Awaited<typeof wire>['createChunkExpander']> | undefined;
  let phase: Phase = 'before';
  let runId = input.runId;
  const apply = async (events: readonly WireEvent[]): Promise<boolean> => {
    for (const event of events) {
      const { nextPhase, reducerFor } = await wire;
      phase = nextPhase(phase, event.type);
      if (event.type === ('RUN_STARTED' as EventType.RUN_STARTED)) runId = event.runId;
      const reduce = await reducerFor(event, options.client.dataParts, options.warn);
      if (!options.isCurrent() || signal.aborted) return false;
      store.dispatch({ type: 'wireEvent', event, now: Date.now(), reduce });
      if (event.type === ('CUSTOM' as EventType.CUSTOM)) options.onCustomEvent({ name: event.name, value: event.value as unknown, runId });
    }
    return true;
  };
  for await (const raw of options.client.connection.run(input, { signal, headers: options.send?.headers })) {
    if (!options.isCurrent()) return undefined;
    const { parseWireEvent, createChunkExpander } = await wire;
    const parsed = parseWireEvent(raw);
    if (!parsed.known) {
      options.onUnknown(parsed.type);
      continue;
    }
    if (store.inspector.active) store.inspector.emit({ type: 'event', at: Date.now(), runId, event: parsed.event });
    expand ??= createChunkExpander();
    if (!(await apply(expand(parsed.event)))) return undefined;
  }
  if (!options.isCurrent() || signal.aborted) return undefined;
  if (expand && !(await apply(expand(undefined)))) return undefined;
  const ended = phase as Phase; // set by apply()
  if (ended === 'finished') return 'finished';
  if (ended === 'failed') return 'error';
  throw new ChatwireError('stream-truncated', 'The response ended before the run finished, so the answer may be incomplete. Try again.');
}
