import { EventType, type Context, type Event as WireEvent, type RunAgentInput, type Tool as WireTool } from '@ag-ui/core';
import { EventSchema } from '@ag-ui/core/schemas';
import { z } from 'zod';
import type { ChatStore } from './chatStore.js';
import { managedWireTools } from './discovery/clientManaged.js';
import type { ChatConnection } from './connection.js';
import { resumeEntries } from './continuation.js';
import type { CatalogDetail } from './discovery/catalog.js';
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
  #cache: { readonly tools: readonly AnyTool[] | undefined; readonly key: string; readonly wire: WireTool[] } | undefined;

  /** The tools to announce: all of them, or (client-managed discovery) eager + discovery tool + discovered. */
  get(tools: readonly AnyTool[] | undefined, managed: boolean | { readonly includeDescription?: CatalogDetail } | undefined, messages: Parameters<typeof discoveredToolsInChat>[0]): WireTool[] {
    const discovered = managed ? discoveredToolsInChat(messages) : [];
    const key = discovered.join('\u0000');
    if (this.#cache && this.#cache.tools === tools && this.#cache.key === key) return this.#cache.wire;
    const detail = managed === true || !managed ? 'none' : (managed.includeDescription ?? 'none');
    const wire = managed ? managedWireTools(tools ?? [], discovered, detail) : (tools ?? []).map(toWireTool);
    this.#cache = { tools, key, wire };
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
}): Promise<RunEnding | undefined> {
  const { store, input, signal } = options;
  let ending: RunEnding | undefined;
  for await (const raw of options.connection.run(input, { signal })) {
    if (!options.isCurrent()) return undefined;
    const event = parseWireEvent(raw);
    if (store.inspector.active) store.inspector.emit({ type: 'event', at: Date.now(), runId: input.runId, event });
    if (ending) continue; // nothing may follow the end of a run
    store.dispatch({ type: 'wireEvent', event, now: Date.now() });
    if (event.type === EventType.RUN_FINISHED) ending = 'finished';
    else if (event.type === EventType.RUN_ERROR) ending = 'error';
  }
  if (!options.isCurrent() || signal.aborted) return undefined;
  if (!ending) throw new ChatwireError('stream-truncated', 'The response ended before the run finished, so the answer may be incomplete. Try again.');
  return ending;
}

/** Validates one event against AG-UI's schemas; a failure names the event type and the problem. */
function parseWireEvent(raw: unknown): WireEvent {
  const parsed = EventSchema.safeParse(raw);
  if (parsed.success) return parsed.data as WireEvent;
  const type = raw && typeof raw === 'object' && 'type' in raw ? String((raw as { type: unknown }).type) : 'without a type';
  throw new ChatwireError('invalid-event', `The server sent an invalid ${type} event: ${z.prettifyError(parsed.error)}`);
}
