import type { Context, RunAgentInput } from '@ag-ui/core';
import type { ChatSnapshot } from '../model/chatState.js';
import type { InspectionEvent } from '../inspection/inspection.js';
import type { ChatStore } from './chatStore.js';
import type { ChatClientOptions } from './chatClientOptions.js';
import type { SendOptions } from './commandInputs.js';
import { WireToolList, buildRunInput, wireHistory } from './runRequest.js';

/** The whole chat's wire messages: `sent` when the request carried all of them. */
const fullHistory = (snapshot: ChatSnapshot, sent: RunAgentInput['messages']) =>
  snapshot.storedMessageId === undefined ? sent : wireHistory(snapshot.messages);

/** What building a turn's next request reads from its client. */
export interface TurnRequestSource {
  readonly store: ChatStore;
  readonly options: ChatClientOptions;
  /** The frontend tools' cache of the client (see `WireToolList`). */
  readonly wireTools: WireToolList;
  /** The context entries MCP Apps keep (after the client's own `context`). */
  readonly appContexts: Iterable<Context>;
  readonly inspect: (event: InspectionEvent) => void;
}

/**
 * Builds the run input of a turn's next request (`send`: the turn's own options) and records that
 * it starts: `requestStarted` (`readAgain` for a run read again, whose resume entries went with it
 * before), the request's token usage under client-managed discovery, and a `request` inspection.
 */
export function startTurnRequest(
  source: TurnRequestSource,
  runId: string,
  send: SendOptions | undefined,
  resuming: boolean,
): RunAgentInput {
  const { store, options } = source;
  const tools = source.wireTools.get(options.tools, options.manageDiscovery, store.getSnapshot().messages);
  const context = [...(options.context ?? []), ...source.appContexts];
  const input = buildRunInput({ store, runId, tools, context, send, history: options.history });
  store.dispatch({ type: 'requestStarted', runId, ...(resuming ? { readAgain: true } : {}) });
  const managed = options.manageDiscovery;
  if (managed && !resuming)
    store.dispatch({
      type: 'usage',
      // The model reads the whole chat even when the request carries only what follows its stored part.
      usage: managed.usage(runId, tools, options.tools ?? [], fullHistory(store.getSnapshot(), input.messages)),
      now: Date.now(),
    });
  source.inspect({ type: 'request', at: Date.now(), runId, input });
  return input;
}
