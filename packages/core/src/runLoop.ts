import type { Context, EventType, RunAgentInput, Tool as WireTool } from '@ag-ui/core';
import type { ChatStore } from './chatStore.js';
import type { ClientDiscovery } from './discovery/clientManaged.js';
import type { ChatConnection } from './connection.js';
import { resumeEntries } from './continuation.js';
import { discoveredToolsInChat } from './discovery/discoveredTools.js';
import { ChatwireError } from './errors.js';
import { toWireMessages } from './messages.js';
import { toWireTool, type AnyTool } from './toolDefinition.js';

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

/** The run input of the next request, built from the snapshot alone (messages, resume entries). */
export function buildRunInput(options: {
  readonly store: ChatStore;
  readonly runId: string;
  readonly tools: WireTool[];
  readonly context: readonly Context[] | undefined;
}): RunAgentInput {
  const snapshot = options.store.getSnapshot();
  const resume = resumeEntries(snapshot);
  return {
    threadId: snapshot.id,
    runId: options.runId,
    messages: toWireMessages(snapshot.messages),
    tools: options.tools,
    context: [...(options.context ?? [])],
    state: {},
    forwardedProps: {},
    ...(resume.length > 0 ? { resume } : {}),
  };
}

/**
 * Reads one run's events into the store. Resolves how the run ended; throws a `ChatwireError` when
 * the transport or the stream fails (including a stream that ends before the run does). Stops
 * quietly, resolving `undefined`, once `isCurrent()` turns false or the request is aborted.
 */
export async function readRun(options: {
  readonly store: ChatStore;
  readonly connection: ChatConnection;
  readonly input: RunAgentInput;
  readonly signal: AbortSignal;
  readonly isCurrent: () => boolean;
  /** An event type AG-UI 1.0 does not define arrived (it is skipped). */
  readonly onUnknown: (type: string) => void;
}): Promise<RunEnding | undefined> {
  const { store, input, signal } = options;
  // Event checks load while the request is under way (off the app's initial load, no wait).
  const checks = import('./parseWireEvent.js');
  let ending: RunEnding | undefined;
  for await (const raw of options.connection.run(input, { signal })) {
    const { parseWireEvent } = await checks;
    if (!options.isCurrent()) return undefined;
    const parsed = parseWireEvent(raw);
    if (!parsed.known) {
      options.onUnknown(parsed.type);
      continue;
    }
    const event = parsed.event;
    if (store.inspector.active) store.inspector.emit({ type: 'event', at: Date.now(), runId: input.runId, event });
    if (ending) continue; // nothing may follow the end of a run
    store.dispatch({ type: 'wireEvent', event, now: Date.now() });
    if (event.type === ('RUN_FINISHED' as EventType.RUN_FINISHED)) ending = 'finished';
    else if (event.type === ('RUN_ERROR' as EventType.RUN_ERROR)) ending = 'error';
  }
  if (!options.isCurrent() || signal.aborted) return undefined;
  if (!ending) throw new ChatwireError('stream-truncated', 'The response ended before the run finished, so the answer may be incomplete. Try again.');
  return ending;
}
