import { ChatwireError } from '../base/errors.js';
import type { createId } from '../base/ids.js';
import type { isTerminalToolCallState, ToolCallPart } from '../lifecycle/toolCallLifecycle.js';
import type { nextStep } from '../model/continuation.js';
import { APP_CALL_ID_PREFIX } from '../protocol/chatwireProtocol.js';
import type { McpAppCallRequest } from '../protocol/mcpApps.js';
import type { findToolCall } from '../reduce/chatReducer.js';
import type { ChatClient } from './chatClient.js';
import type { SendOptions, SendResult } from './commandInputs.js';

/**
 * A tool call an MCP App asks for (`ChatClient.callAppTool`): one run whose input names the call
 * (`forwardedProps.chatwire.appCall`), which the server makes itself with the approvals, grants
 * and lazy rules of the model's calls, without calling the model. The client loads this module the
 * first time an app calls a tool. It imports nothing of the client's first load but `ChatwireError` and
 * the protocol's names (the client gives it the rest): what else it shared with that load, a bundler
 * would split out of the load's chunks.
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

/**
 * What the module needs of its client beyond its public `getSnapshot` and `subscribe`: two private
 * steps and the client's own helpers (passed, not imported, so this chunk shares none of them).
 */
export interface AppToolCallHost {
  /** Whether a response is in progress (the one answer to it, `Turn.busy`). */
  readonly busy: () => boolean;
  /** Starts a turn without a user message, with these options; resolves when it comes to rest. */
  readonly start: (options: SendOptions) => Promise<SendResult>;
  /** `nextStep` (short names: they are strings in the client's first load). */
  readonly step: typeof nextStep;
  /** `findToolCall`. */
  readonly find: typeof findToolCall;
  /** `isTerminalToolCallState`. */
  readonly settled: typeof isTerminalToolCallState;
  /** `createId`. */
  readonly id: typeof createId;
}

type Client = Pick<ChatClient, 'getSnapshot' | 'subscribe'>;

const NAME_CHARS = 128;

const refuse = (code: 'invalid-argument' | 'busy' | 'cancelled', message: string): AppToolCallResult => ({
  ok: false,
  error: new ChatwireError(code, message),
});

const WAITING = 'The chat is waiting for your answer to an earlier request; the app can call tools once it is answered.';

/**
 * Makes an app's call: checks the input, waits while a response is in progress, starts the run,
 * and resolves once the call's part settles (an approval the user gives later included).
 */
export async function callAppTool(client: Client, host: AppToolCallHost, input: AppToolCallInput): Promise<AppToolCallResult> {
  const { via, name, signal } = input;
  const args = input.arguments ?? {};
  if (typeof name !== 'string' || name === '' || name.length > NAME_CHARS)
    return refuse('invalid-argument', `callAppTool: the tool name must be 1 to ${NAME_CHARS} characters.`);
  // (A `__proto__` key deeper in is refused by the server, which reads every app call's arguments.)
  if (typeof args !== 'object' || args === null || Array.isArray(args) || Object.hasOwn(args, '__proto__'))
    return refuse('invalid-argument', `callAppTool: the arguments of '${name}' must be a plain object.`);
  if (typeof via !== 'string' || !findCall(client, host, via))
    return refuse('invalid-argument', `callAppTool: there is no tool call '${String(via)}' in this chat for the app to belong to.`);
  if (!(await whenIdle(client, host, signal))) return refuse('cancelled', `The app went away before '${name}' was called.`);
  // A call or an interrupt of the last turn waits on the user (an approval, an input request).
  if (host.step(client.getSnapshot()) === 'waiting') return refuse('busy', WAITING);

  const toolCallId = host.id(APP_CALL_ID_PREFIX);
  const appCall: McpAppCallRequest = { toolCallId, via, name, arguments: args };
  const started = await host.start({ body: { chatwire: { appCall } } });
  if (!started.sent) return { ok: false, error: started.error };
  return settled(client, host, toolCallId, signal);
}

const findCall = (client: Client, host: AppToolCallHost, toolCallId: string): ToolCallPart | undefined =>
  host.find(client.getSnapshot().messages, (call) => call.toolCallId === toolCallId)?.call;

/** How often a waiting app call looks again when the chat did not change (a turn can rest without a change). */
const RECHECK_MS = 250;

/** Resolves `true` once no response is in progress (at once when none is), `false` when `signal` aborts first. */
async function whenIdle(client: Client, host: AppToolCallHost, signal: AbortSignal | undefined): Promise<boolean> {
  while (host.busy()) {
    if (signal?.aborted) return false;
    // Looked at again after the chat's next change (once the dispatch that made it returned: a turn
    // rests just after its last one), or after RECHECK_MS, or when the app goes away.
    await new Promise<void>((resolve) => {
      const done = () => {
        unsubscribe();
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const unsubscribe = client.subscribe(() => void Promise.resolve().then(done));
      const timer = setTimeout(done, RECHECK_MS);
      signal?.addEventListener('abort', done, { once: true });
    });
  }
  return !signal?.aborted;
}

/** Resolves once the call `toolCallId` settles, or the turn rested without making it, or `signal` aborts. */
function settled(client: Client, host: AppToolCallHost, toolCallId: string, signal: AbortSignal | undefined): Promise<AppToolCallResult> {
  return new Promise((resolve) => {
    const finish = (result: AppToolCallResult) => {
      unsubscribe();
      signal?.removeEventListener('abort', onAbort);
      resolve(result);
    };
    const check = () => {
      const call = findCall(client, host, toolCallId);
      if (call && host.settled(call.state)) return finish({ ok: true, part: call });
      if (call) return;
      // The run ended without the call (it failed first), or the chat dropped it: say why.
      finish({
        ok: false,
        error: client.getSnapshot().error ?? new ChatwireError('cancelled', 'The call was not made: the chat moved on before it started.'),
      });
    };
    const onAbort = () => finish(refuse('cancelled', 'The app went away before its call settled.'));
    const unsubscribe = client.subscribe(check);
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) onAbort();
    else check();
  });
}
