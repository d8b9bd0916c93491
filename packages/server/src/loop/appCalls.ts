import { EventType, type AssistantMessage, type Event, type Interrupt, type Message, type ToolCall } from '@ag-ui/core';
import { MCP_APP_EVENT, isAppCallId, type McpAppCallRequest } from '@chatwire/core';
import { createId, mayRunLazyCall } from '@chatwire/core/shared';
import { toolAppOf, type ToolApp } from '../extensions/chatwireExtension.js';
import type { RegisteredTool } from '../tools/toolRegistry.js';
import { errorResult } from './resultEvents.js';
import { adding } from './historyAdditions.js';
import type { RunContext } from '../run/runContext.js';
import { approveServerCall, prepareServerCall, type PreparedCall } from './triageCalls.js';

/*
 * MCP Apps in the agent loop: the app a call brings (announced as the model starts the call), the
 * calls apps make (a run that makes one call the model never made, with the approvals, grants and
 * lazy rules of the model's calls), and the history the model reads, which leaves those calls out.
 */

/** The MCP Apps facts of a registered tool, if its extension gives them. */
function appOfTool(tool: RegisteredTool | undefined): ToolApp | undefined {
  return tool?.source === 'server' ? toolAppOf(tool.definition) : undefined;
}

/**
 * The `chatwire.mcp.app` event for a call of `toolName` the model just started, when the tool has an
 * app to show; `undefined` otherwise (no app, or its resource could not be read: the extension says
 * why in its own status).
 */
export async function appAnnouncement(context: RunContext, toolCallId: string, toolName: string): Promise<Event | undefined> {
  const tool = context.tools.registry.get(toolName);
  // A tool only apps may call is no tool of the model's: its call is refused, with no app.
  if (tool?.appOnly) return undefined;
  const app = appOfTool(tool);
  if (!app?.resourceUri || !app.view) return undefined;
  let view: Readonly<Record<string, unknown>> | undefined;
  try {
    view = await app.view(context.signal);
  } catch {
    return undefined;
  }
  if (!view) return undefined;
  return { type: EventType.CUSTOM, name: MCP_APP_EVENT, value: { id: toolCallId, data: { ...view, toolCallId } } };
}

/**
 * The history as the model reads it: the calls apps made, and their results, left out (the model
 * never made them, and may not know an app-only tool). An assistant message left with nothing is
 * dropped.
 */
export function withoutAppCalls(messages: readonly Message[]): Message[] {
  if (!messages.some((message) => message.role === 'assistant' && message.toolCalls?.some((call) => isAppCallId(call.id))))
    return messages as Message[];
  const out: Message[] = [];
  for (const message of messages) {
    if (message.role === 'tool' && isAppCallId(message.toolCallId)) continue;
    if (message.role !== 'assistant' || !message.toolCalls?.some((call) => isAppCallId(call.id))) {
      out.push(message);
      continue;
    }
    const { toolCalls, ...rest } = message;
    const kept = toolCalls.filter((call) => !isAppCallId(call.id));
    if (kept.length === 0 && !rest.content) continue;
    out.push(kept.length > 0 ? { ...rest, toolCalls: kept } : rest);
  }
  return out;
}

/** What an app's call needs after it was made here: calls to run now, or the approval it waits on. */
export interface AppCallOutcome {
  readonly serverCalls: PreparedCall[];
  readonly interrupts: Interrupt[];
}

const NOTHING: AppCallOutcome = { serverCalls: [], interrupts: [] };

/** The tool an app may call: of its own server, by the name that server lists it under. */
function appTarget(context: RunContext, server: string, name: string): { tool: RegisteredTool; app: ToolApp } | undefined {
  const { registry } = context.tools;
  for (const tool of [...registry.all(), ...registry.appOnly()]) {
    const app = appOfTool(tool);
    if (app && app.server === server && app.name === name) return { tool, app };
  }
  return undefined;
}

/** Why an app's call cannot be made, or the tool it goes to. */
async function resolveAppCall(
  context: RunContext,
  request: McpAppCallRequest,
): Promise<{ readonly tool: RegisteredTool } | { readonly error: string; readonly name?: string }> {
  const viaCall = context.history
    .flatMap((message) => (message.role === 'assistant' ? (message.toolCalls ?? []) : []))
    .find((call) => call.id === request.via);
  const viaApp = viaCall && appOfTool(context.tools.registry.get(viaCall.function.name));
  if (!viaApp?.resourceUri) return { error: `There is no app for the call '${request.via}' in this chat to make '${request.name}' for.` };
  const target = appTarget(context, viaApp.server, request.name);
  if (!target) return { error: `MCP server '${viaApp.server}' has no tool '${request.name}' an app can call.` };
  const { tool, app } = target;
  if (!tool.server) return { error: `'${tool.name}' does not run on this server; apps may not call it.`, name: tool.name };
  // The MCP Apps specification: a tool whose visibility leaves out "app" is refused to apps.
  if (!app.visibility.includes('app'))
    return { error: `'${request.name}' of MCP server '${viaApp.server}' is for the model only; apps may not call it.`, name: tool.name };
  // The lazy rule of the model's calls: a lazy tool nobody discovered is not loaded by an app's call.
  const { discovery } = context.tools;
  if (!(await mayRunLazyCall(tool, () => discovery.discovered(context.history), discovery.deferring)))
    return {
      error: `'${tool.name}' is a lazy tool the model has not discovered in this chat, so apps may not call it yet.`,
      name: tool.name,
    };
  return { tool };
}

/**
 * Makes the call an app asks for (`forwardedProps.chatwire.appCall`): streams it like a model's call
 * (its own assistant message), then decides it like one. A call already in the history (the run that
 * continues it after an approval) is not made again. A call that cannot be made gets an error
 * result, which the app reads.
 */
export async function* makeAppCall(context: RunContext, request: McpAppCallRequest): AsyncGenerator<Event, AppCallOutcome, undefined> {
  const known = context.history.some(
    (message) =>
      (message.role === 'assistant' && message.toolCalls?.some((call) => call.id === request.toolCallId)) ||
      (message.role === 'tool' && message.toolCallId === request.toolCallId),
  );
  if (known) return NOTHING;
  const resolved = await resolveAppCall(context, request);
  const name = 'tool' in resolved ? resolved.tool.name : (resolved.name ?? request.name);
  const call: ToolCall = { id: request.toolCallId, type: 'function', function: { name, arguments: JSON.stringify(request.arguments) } };
  const messageId = createId('msg');
  yield { type: EventType.TOOL_CALL_START, toolCallId: call.id, toolCallName: name, parentMessageId: messageId };
  yield { type: EventType.TOOL_CALL_ARGS, toolCallId: call.id, delta: call.function.arguments };
  const message: AssistantMessage = { id: messageId, role: 'assistant', toolCalls: [call] };
  yield adding({ type: EventType.TOOL_CALL_END, toolCallId: call.id }, [message]);
  if (!('tool' in resolved)) {
    yield errorResult(context, call, resolved.error);
    return NOTHING;
  }
  const { tool } = resolved;
  const prepared = await prepareServerCall(tool.server as NonNullable<RegisteredTool['server']>, call);
  // (resolveAppCall only returns tools that run here.)
  if (!prepared.ok) {
    yield errorResult(context, call, prepared.error);
    return NOTHING;
  }
  const approved = yield* approveServerCall(context, tool, prepared.prepared);
  if (approved === 'run') return { serverCalls: [prepared.prepared], interrupts: [] };
  return approved ? { serverCalls: [], interrupts: [approved] } : NOTHING;
}
