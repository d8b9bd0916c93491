import { EventType, type Event, type Message } from '@ag-ui/core';
import { CHATWIRE_EVENTS, executeTool, type AnyTool, type ToolContext } from '@chatwire/core';
import { isExposed, reportError } from '../errors/errorReport.js';
import { eventPrefixOf } from '../extensions/chatwireExtension.js';
import { redactSecrets } from '../errors/redactSecrets.js';
import { errorResult, resultEvent } from './resultEvents.js';
import type { RunContext } from './runContext.js';
import type { PreparedCall } from './triageCalls.js';

/**
 * Names a tool may not use for its CUSTOM events: the client reads these as Chatwire's own. A tool a
 * server package extended may use its namespace within it (`extendTools`).
 */
const RESERVED_PREFIX = 'chatwire.';

/**
 * Stands in for the input schema when `executeTool` runs a prepared call: the loop validated the
 * input once already (triage needs the validated value for `needsApproval`), and validating the
 * schema's output a second time would run transforms twice or reject what they produced.
 */
const alreadyValidated: AnyTool['inputSchema'] = {
  '~standard': { version: 1, vendor: 'chatwire', validate: (value: unknown) => ({ value }) },
};

/**
 * Runs prepared server calls concurrently and yields, in the order they happen, each call's CUSTOM
 * events (`context.emit`) and its result as it settles.
 */
export async function* executeServerCalls(context: RunContext, calls: readonly PreparedCall[]): AsyncGenerator<Event, void, undefined> {
  if (calls.length === 0) return;
  for (const { call } of calls) {
    yield { type: EventType.CUSTOM, name: CHATWIRE_EVENTS.toolExecuting, value: { toolCallId: call.id } };
  }
  // Every call of this batch sees the history as it stood when they started (the assistant message
  // holding the calls included); results of its siblings are not in it.
  const messages: readonly Message[] = [...context.history];
  const queue: Event[] = [];
  let wake: (() => void) | undefined;
  let remaining = calls.length;
  const push = (event: Event) => {
    queue.push(event);
    wake?.();
  };
  for (const prepared of calls) {
    let settled = false;
    // A tool a server package extended (extendTools) may emit in its own Chatwire namespace, and only there.
    const granted = eventPrefixOf(prepared.tool);
    const emit = (name: string, value: unknown): void => {
      if (typeof name !== 'string' || name.length === 0) throw new TypeError('emit(name, value): the event name must be a non-empty string.');
      if (name.startsWith(RESERVED_PREFIX) && !(granted !== undefined && name.startsWith(granted) && name.length > granted.length)) {
        throw new TypeError(
          `emit('${name}'): event names starting with '${RESERVED_PREFIX}' are reserved for Chatwire${granted ? ` (this tool may emit '${granted}*')` : ''}.`,
        );
      }
      let json: string | undefined;
      try {
        json = JSON.stringify(value);
      } catch (error) {
        throw new TypeError(`emit('${name}'): the value is not JSON (${error instanceof Error ? error.message : String(error)}).`, { cause: error });
      }
      // After its result the call's stream position is gone (the run may have ended): dropped.
      if (settled) return;
      // A copy: the tool may change its object after emitting it.
      push({ type: EventType.CUSTOM, name, value: json === undefined ? null : (JSON.parse(json) as unknown) });
    };
    const settle = (event: Event) => {
      settled = true;
      remaining--;
      push(event);
    };
    runServerCall(context, prepared, { toolCallId: prepared.call.id, signal: context.signal, messages, emit }).then(settle, (error: unknown) => {
      // Not expected (runServerCall turns failures into results), but a lost call would hang the run.
      const ref = reportError(context.onError, { kind: 'run', error, threadId: context.threadId, runId: context.runId, toolName: prepared.tool.name, toolCallId: prepared.call.id });
      settle(errorResult(context, prepared.call, `Tool '${prepared.tool.name}' failed (ref ${ref}; details are in the server log).`));
    });
  }
  while (remaining > 0 || queue.length > 0) {
    if (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
    while (queue.length > 0) yield queue.shift() as Event;
  }
}

/** Runs one prepared call; never rejects: every failure becomes an error result the model reads. */
async function runServerCall(context: RunContext, { call, tool, input, discovers }: PreparedCall, toolContext: ToolContext): Promise<Event> {
  const outcome = await executeTool({ ...tool, inputSchema: alreadyValidated }, input, toolContext);
  // Call-to-load: the call discovered its tool, whatever its outcome, so later requests send it.
  const versions = discovers ? context.tools.discovery.versionsOf([tool.name]) : undefined;
  const marker = discovers ? { discoveredTools: [tool.name], ...(versions ? { toolVersions: versions } : {}) } : {};
  if (outcome.ok) return resultEvent(context, call, outcome.content, marker);
  if (!('thrown' in outcome)) return errorResult(context, call, outcome.error, marker);
  // The tool threw: its text may hold secrets (connection strings, internal hosts). The model and the
  // client read a safe message unless the tool exposed it; the details go to onError.
  const ref = reportError(context.onError, { kind: 'tool', error: outcome.thrown, threadId: context.threadId, runId: context.runId, toolName: tool.name, toolCallId: call.id });
  const shown = isExposed(outcome.thrown) ? `Tool '${tool.name}' failed: ${redactSecrets(outcome.thrown.message)}` : `Tool '${tool.name}' failed (ref ${ref}; details are in the server log).`;
  return errorResult(context, call, shown, marker);
}
