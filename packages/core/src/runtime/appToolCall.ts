import { ChatwireError } from '../base/errors.js';
import { hasProtoKey } from '../base/hasProtoKey.js';
import { createId } from '../base/ids.js';
import { isTerminalToolCallState, type ToolCallPart } from '../lifecycle/toolCallLifecycle.js';
import type { ChatSnapshot } from '../model/chatState.js';
import { nextStep } from '../model/continuation.js';
import { APP_CALL_ID_PREFIX, type McpAppCallRequest } from '../protocol/mcpApps.js';
import { findToolCall } from '../reduce/chatReducer.js';
import type { SendOptions, SendResult } from './chatClient.js';

/**
 * A tool call an MCP App asks for (`ChatClient.callAppTool`): one run whose input names the call
 * (`forwardedProps.chatwire.appCall`), which the server makes itself with the approvals, grants
 * and lazy rules of the model's calls, without calling the model. The client loads this module the
 * first time an app calls a tool.
 */

/** What {@link ChatClient.callAppTool} takes. */
export interface AppToolCallInput {
  /** The tool call whose app asks (the app belongs to that call's MCP server). */
  readonly via: string;
  /** The tool's name as the app's MCP server lists it. */
  readonly name: string;
  readonly arguments?: Readonly<Record<string, unknown>>;
  /** Gives up waiting (the app went away): the call's part stays in the chat. */
  readonly signal?: AbortSignal;
}

/**
 * How an app's call ended: its part once it settled (a result, an error, a denial or a stop), or a
 * refusal before anything was sent (the chat waits on the user, the input is wrong, the app went
 * away). Never rejects.
 */
export type AppToolCallResult = { readonly ok: true; readonly part: ToolCallPart } | { readonly ok: false; readonly error: ChatwireError };

/** What the module needs of its client. */
export interface AppToolCallHost {
  readonly getSnapshot: () => ChatSnapshot;
  readonly subscribe: (listener: () => void) => () => void;
  /** Resolves `true` once no response is in progress, `false` when `signal` aborts first. */
  readonly whenIdle: (signal: AbortSignal | undefined) => Promise<boolean>;
  /** Starts a turn without a user message, with these options; resolves when it comes to rest. */
  readonly start: (options: SendOptions) => Promise<SendResult>;
}

const NAME_CHARS = 128;

const refuse = (code: 'invalid-argument' | 'busy' | 'cancelled', message: string): AppToolCallResult => ({
  ok: false,
  error: new ChatwireError(code, message),
});

/** Why the chat cannot take an app's call now, if it cannot. */
function waitingOnUser(snapshot: ChatSnapshot): string | undefined {
  return nextStep(snapshot) === 'waiting'
    ? 'The chat is waiting for your answer to an earlier request; the app can call tools once it is answered.'
    : undefined;
}

/**
 * Makes an app's call: checks the input, waits while a response is in progress, starts the run,
 * and resolves once the call's part settles (an approval the user gives later included).
 */
export async function callAppTool(host: AppToolCallHost, input: AppToolCallInput): Promise<AppToolCallResult> {
  const { via, name, signal } = input;
  const args = input.arguments ?? {};
  if (typeof name !== 'string' || name === '' || name.length > NAME_CHARS)
    return refuse('invalid-argument', `callAppTool: the tool name must be 1 to ${NAME_CHARS} characters.`);
  if (typeof args !== 'object' || args === null || Array.isArray(args) || hasProtoKey(args))
    return refuse('invalid-argument', `callAppTool: the arguments of '${name}' must be a plain object.`);
  if (typeof via !== 'string' || !findToolCall(host.getSnapshot().messages, (call) => call.toolCallId === via))
    return refuse('invalid-argument', `callAppTool: there is no tool call '${String(via)}' in this chat for the app to belong to.`);
  if (!(await host.whenIdle(signal))) return refuse('cancelled', `The app went away before '${name}' was called.`);
  const waiting = waitingOnUser(host.getSnapshot());
  if (waiting) return refuse('busy', waiting);

  const toolCallId = createId(APP_CALL_ID_PREFIX);
  const appCall: McpAppCallRequest = { toolCallId, via, name, arguments: args };
  const started = await host.start({ body: { chatwire: { appCall } } });
  if (!started.sent) return { ok: false, error: started.error };
  return settled(host, toolCallId, signal);
}

/** Resolves once the call `toolCallId` settles, or the turn rested without making it, or `signal` aborts. */
function settled(host: AppToolCallHost, toolCallId: string, signal: AbortSignal | undefined): Promise<AppToolCallResult> {
  return new Promise((resolve) => {
    const finish = (result: AppToolCallResult) => {
      unsubscribe();
      signal?.removeEventListener('abort', onAbort);
      resolve(result);
    };
    const check = () => {
      const snapshot = host.getSnapshot();
      const call = findToolCall(snapshot.messages, (part) => part.toolCallId === toolCallId)?.call;
      if (call && isTerminalToolCallState(call.state)) return finish({ ok: true, part: call });
      if (call) return;
      // The run ended without the call (it failed first), or the chat dropped it: say why.
      finish({
        ok: false,
        error: snapshot.error ?? new ChatwireError('cancelled', 'The call was not made: the chat moved on before it started.'),
      });
    };
    const onAbort = () => finish(refuse('cancelled', 'The app went away before its call settled.'));
    const unsubscribe = host.subscribe(check);
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) onAbort();
    else check();
  });
}
