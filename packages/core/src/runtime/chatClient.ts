import { findToolCall } from '../reduce/chatReducer.js';
import type { ChatSnapshot, TurnRecord } from '../model/chatState.js';
import { ChatStore } from './chatStore.js';
import type { Context } from '@ag-ui/core';
import { ChatwireError } from '../base/errors.js';
import { createId } from '../base/ids.js';
import type { AppMessage, InspectionObserver } from '../inspection/inspection.js';
import { toolCallParts, type ChatMessage } from '../model/messages.js';
import type { AppToolCallInput, AppToolCallResult } from './appToolCall.js';
import { initialStateOf, type ChatClientOptions, type UpdatableChatClientOptions } from './chatClientOptions.js';
import type { ApprovalResponseInput, SendMessageInput, SendOptions, SendResult, ToolResultInput } from './commandInputs.js';
import { loadReader } from './runRequest.js';
import { TurnRunner } from './turnRunner.js';
import { isTerminalToolCallState, transitionToolCall, type ToolCallEvent } from '../lifecycle/toolCallLifecycle.js';

export type { ChatSnapshot } from '../model/chatState.js';

/**
 * The headless chat: one immutable snapshot behind `subscribe` / `getSnapshot`, commands that
 * dispatch through a single reducer, AG-UI runs over a pluggable connection, browser tools,
 * approvals and automatic continuation. Everything a chat needs to continue lives in the snapshot,
 * so a client built from saved messages picks up where the saved one stopped. Its commands are
 * bound to it: pass `client.sendMessage` (or `stop`, `addToolResult`...) on as it is.
 *
 * @example
 * ```ts
 * const client = new ChatClient({ connection: fetchServerSentEvents('/api/chat') });
 * client.subscribe(() => render(client.getSnapshot()));
 * await client.sendMessage('Hello');
 * ```
 */
export class ChatClient {
  /** The conversation id (AG-UI `threadId`). */
  readonly id: string;
  #options: ChatClientOptions;
  readonly #store: ChatStore;
  /** The current turn, its runs and the browser tools (see `TurnRunner`). */
  readonly #runner: TurnRunner;
  /** What MCP Apps shown in the chat keep in the model's context, by app (see {@link setAppContext}). */
  readonly #appContexts = new Map<string, Context>();

  constructor(options: ChatClientOptions) {
    this.#options = options;
    this.id = options.id ?? createId('chat');
    this.#store = new ChatStore(this.id, initialStateOf(options), {
      perform: (changes) => this.#runner.tools.perform(changes),
      warn: (message) => this.#runner.warn(message),
    });
    this.#runner = new TurnRunner(this, this.#store, this.#appContexts);
    this.subscribe = this.#store.subscribe;
    this.getSnapshot = this.#store.getSnapshot;
  }

  /** Subscribes to snapshot changes; returns the unsubscribe function. */
  readonly subscribe: (listener: () => void) => () => void;

  /** The current snapshot. The same object until something changes. */
  readonly getSnapshot: () => ChatSnapshot;

  /**
   * Observes everything the client does (turns, requests, events, snapshots, tool-call transitions,
   * warnings). Free without observers; devtools records its history through this.
   */
  inspect(observer: InspectionObserver): () => void {
    return this.#store.inspector.observe(observer);
  }

  /**
   * Reports a message between the page and an MCP App shown in this chat to its inspectors (devtools'
   * timeline); free when nobody inspects. `@chatwire/ui`'s app view reports each one it reads or sends.
   */
  reportAppMessage(message: AppMessage): void {
    this.#runner.inspect({ type: 'app', at: Date.now(), ...message });
  }

  /** Replaces some options; later requests and callbacks use the new values. */
  updateOptions(options: UpdatableChatClientOptions): void {
    this.#options = { ...this.#options, ...options };
  }

  /** The options in effect. */
  get options(): ChatClientOptions {
    return this.#options;
  }

  /**
   * Sends a user message and runs the turn to its end (including automatic continuations). Never
   * rejects: while a response is streaming (unless `queue` is on), for an empty message, or for
   * files the limits refuse, it resolves `{ sent: false, error }` and changes nothing; stream
   * failures become `status: 'error'` and resolve `{ sent: true }`. Calls of the last turn still
   * waiting on the user are settled first (a server's approval becomes a denial). With `messageId`,
   * edits that user message: the new text takes its place as a new message (a new id; what followed
   * is dropped) and the turn runs again from it, so a server that keeps threads stores the edit as a
   * branch beside the original, as it does for `regenerate()`. `options` apply to this turn's
   * requests only.
   *
   * @example
   * ```ts
   * await client.sendMessage('Weather in Paris?');
   * await client.sendMessage({ text: 'What is this?', files: input.files }); // attachments
   * await client.sendMessage('Summarise', { body: { model: 'large' }, headers: { 'x-trace': id } }); // this turn only
   * await client.sendMessage({ text: 'Weather in Lyon?', messageId: firstUserMessage.id }); // edit and re-run
   * ```
   */
  readonly sendMessage = (message: string | SendMessageInput, options?: SendOptions): Promise<SendResult> => {
    const input: SendMessageInput = typeof message === 'string' ? { text: message } : (message ?? {});
    const { text = '', files, messageId } = input;
    if (typeof text !== 'string' || (text.trim() === '' && !files?.length)) {
      return this.#runner.refuse(new ChatwireError('invalid-argument', 'sendMessage needs non-empty text or files.'));
    }
    if (messageId !== undefined && !this.getSnapshot().messages.some((item) => item.id === messageId && item.role === 'user')) {
      return this.#runner.refuse(new ChatwireError('invalid-argument', `sendMessage: there is no user message '${messageId}' to edit.`));
    }
    // Queued messages go in order: a send waits behind them even when the chat is free.
    if (this.#options.queue && messageId === undefined && (this.#runner.busy() || this.getSnapshot().queued.length > 0)) {
      return this.#runner.enqueue(input, options);
    }
    if (this.#runner.busy()) return this.#runner.refuse(this.#runner.busyError());
    // An edit is a new message, never the old id with other text: a thread store keeps what it stored under an id.
    return this.#runner.send(input, options, createId('msg'));
  };

  /**
   * Takes a message out of the send queue before it is sent; its `sendMessage` resolves
   * `{ sent: false }` with a `cancelled` error. Returns `false` when it is no longer queued (sent already).
   */
  readonly cancelQueued = (id: string): boolean => {
    return this.#runner.queue?.cancel(id) ?? false;
  };

  /** Cancels every queued message (see {@link cancelQueued}). */
  readonly clearQueue = (): void => {
    this.#runner.queue?.clear();
  };

  /**
   * Answers an interrupt the agent raised (an `interrupt` part: any reason but a tool approval),
   * with the payload its `responseSchema` describes. Once nothing else waits, the next run carries
   * the answer as a resume entry. Throws `unknown-interrupt` when no such interrupt waits.
   */
  readonly respondToInterrupt = (response: { readonly id: string; readonly payload?: unknown }): void => {
    this.#runner.answerInterrupt(response.id, 'resolved', response.payload);
  };

  /** Declines an interrupt: the next run carries it as `cancelled`. Throws `unknown-interrupt` when no such interrupt waits. */
  readonly cancelInterrupt = (id: string): void => {
    this.#runner.answerInterrupt(id, 'cancelled', undefined);
  };

  /**
   * Replaces the agent's shared state (what `STATE_SNAPSHOT` / `STATE_DELTA` keep): the next run
   * sends it as its `state`. Takes the new state or a function of the current one.
   */
  readonly setAgentState = (next: unknown): void => {
    const current = this.getSnapshot().agentState;
    this.#store.dispatch({
      type: 'setAgentState',
      agentState: typeof next === 'function' ? (next as (state: unknown) => unknown)(current) : next,
    });
  };

  /** Dismisses the error the last turn ended with: `status` turns `ready`, `error` `undefined`. */
  readonly clearError = (): void => {
    this.#store.dispatch({ type: 'clearError' });
  };

  /**
   * Drops the last assistant turn and asks again. Like `sendMessage`, never rejects: resolves
   * `{ sent: false, error }` (`busy`, or `invalid-argument` without a user message) and changes nothing.
   */
  readonly regenerate = (options?: SendOptions): Promise<SendResult> =>
    import('./regenerate.js').then((module) => module.regenerate(this.#runner, this.#store, options, this.stop));

  /**
   * Reconnects to this chat's run in flight (`snapshot.activeRun`, on a server with resumable
   * streams, e.g. after a reload from saved state): reads the events after `lastEventId`, then the
   * rest, and goes on with the turn as usual. Resolves once the turn comes to rest; at once, changing
   * nothing, when there is no run to resume or a response is in progress. When the server no longer
   * has the run (204, 404), what was saved of it is all there is: its turn is closed, and the chat is
   * `ready`. A refusal (a token the server did not issue for this chat, events it no longer holds)
   * ends in `status: 'error'` with a `resume-failed` error. Never rejects.
   *
   * @example
   * ```ts
   * const client = new ChatClient({ connection, id: saved.id, initialMessages: saved.messages, initialActiveRun: saved.activeRun, initialResumeToken: saved.resumeToken });
   * await client.resumeStream();
   * ```
   */
  readonly resumeStream = (): Promise<void> => {
    const { activeRun, resumeToken } = this.getSnapshot();
    if (!activeRun || !resumeToken || this.#runner.busy()) return Promise.resolve();
    return this.#runner.start(this.#runner.newTurn(undefined), activeRun).then(() => {});
  };

  /**
   * Stops the current response: aborts the request and running tools, keeps what arrived. On a
   * server with resumable streams, asks it to stop the run too (`DELETE`), also a resumed one and a
   * chat's first run whose response has not arrived yet (see `TurnRunner.stop`). A message whose
   * files are still being read is not sent. Queued messages stay queued (paused until the next send).
   */
  readonly stop = (): void => {
    this.#runner.stop(true);
  };

  /** Replaces the messages (stopping any response first). */
  readonly setMessages = (messages: readonly ChatMessage[] | ((current: readonly ChatMessage[]) => readonly ChatMessage[])): void => {
    this.stop();
    const next = typeof messages === 'function' ? messages(this.getSnapshot().messages) : messages;
    this.#store.dispatch({ type: 'setMessages', messages: next });
  };

  /**
   * Thread stores: says which message the server has stored last (`snapshot.storedMessageId`), for an
   * app that loaded a stored thread itself (its last message's id); requests then carry the messages
   * from that one on while it is in the chat (see `history`). `undefined` forgets it: requests carry
   * every message again. The server reads its stored branch whatever a request carries; a message it
   * never stored makes the request fail (`409`), as the whole chat would.
   *
   * @example
   * ```ts
   * const detail = await threads.get(threadId);
   * client.setMessages(threadMessages(detail));
   * client.setStoredMessageId(detail.messages.at(-1)?.id);
   * ```
   */
  readonly setStoredMessageId = (messageId: string | undefined): void => {
    this.#store.dispatch({ type: 'storedMessage', messageId });
  };

  /**
   * Thread stores: brings back the token accounting of turns this chat shows but has no record of
   * (a reloaded page, a thread opened from the list): each turn of `turns` whose id is one of the
   * chat's user messages, with its model calls checked like streamed ones, joins `snapshot.turns` in
   * the messages' order, and `conversationUsage` is summed over them when the chat has none. Turns
   * the chat already has are kept as they are, so calling it again with the same thread changes
   * nothing. `useThreadChat` calls it with each thread it loads.
   *
   * @example
   * ```ts
   * const detail = await threads.get(threadId);
   * client.setMessages(threadMessages(detail));
   * await client.restoreTurns(detail.turns ?? []);
   * ```
   */
  readonly restoreTurns = (turns: readonly TurnRecord[]): Promise<void> => {
    return loadReader().then(({ turnsRestoredAction }) => {
      const action = turnsRestoredAction(this.getSnapshot(), turns);
      if (action) this.#store.dispatch(action);
    });
  };

  /**
   * Answers a tool call the app handles itself. Throws `unknown-tool-call` when no such call exists
   * and `tool-call-settled` when it already has a result.
   */
  readonly addToolResult = (result: ToolResultInput): void => {
    const { toolCallId } = result;
    const event: ToolCallEvent =
      'error' in result
        ? { type: 'fail', error: result.error }
        : { type: 'output', output: result.output, content: JSON.stringify(result.output === undefined ? null : result.output) };
    const call = findToolCall(this.getSnapshot().messages, (part) => part.toolCallId === toolCallId)?.call;
    if (!call) throw new ChatwireError('unknown-tool-call', `addToolResult: there is no tool call '${toolCallId}'.`);
    // The lifecycle table decides whether the call takes a result; a refusal says where the call is.
    if (transitionToolCall(call, event).refused) {
      const settled = isTerminalToolCallState(call.state);
      const why = settled ? 'already has its result' : `is '${call.state}', not waiting for a result`;
      throw new ChatwireError(
        settled ? 'tool-call-settled' : 'invalid-argument',
        `addToolResult: tool call '${toolCallId}' (${call.toolName}) ${why}.`,
      );
    }
    this.#store.dispatch({ type: 'toolCall', toolCallId, event, now: Date.now(), owner: 'client', answer: true });
  };

  /**
   * Answers an approval request. Approving a browser tool runs it; denying cancels the call and
   * tells the model. Throws `unknown-approval` when no call waits on this id.
   */
  readonly addToolApprovalResponse = (response: ApprovalResponseInput): void => {
    const { id, approved, reason, ...answer } = response;
    const event: ToolCallEvent = { type: 'approvalResponse', approved, reason, answer };
    const call = findToolCall(this.getSnapshot().messages, (part) => part.approval?.id === id)?.call;
    // The lifecycle table decides whether the call still waits on this answer.
    if (!call || transitionToolCall(call, event).refused) {
      const already = call ? ` (already answered: the call is '${call.state}')` : '';
      throw new ChatwireError('unknown-approval', `There is no pending approval '${id}'${already}.`);
    }
    this.#store.dispatch({ type: 'toolCall', toolCallId: call.toolCallId, event, now: Date.now(), answer: true });
  };

  /**
   * Calls a tool for an MCP App shown in this chat (the app's `tools/call`): a run whose input names
   * the call, which the server makes with the approvals, grants and lazy rules of the model's calls
   * and without calling the model; the call appears in the chat like the model's. Waits while a
   * response is in progress; refused (`busy`) while the chat waits on the user. Resolves the call's
   * part once it settled (after an approval the user gives later, if it asks), or a refusal. Never
   * rejects.
   *
   * @example
   * ```ts
   * const outcome = await client.callAppTool({ via: appCall.toolCallId, name: 'get-time', arguments: {} });
   * ```
   */
  readonly callAppTool = (input: AppToolCallInput): Promise<AppToolCallResult> => {
    return import('./appToolCall.js').then((module) => module.callAppTool(this, this.#runner.appToolHost(), input));
  };

  /**
   * Sets what an MCP App keeps in the model's context (its `ui/update-model-context`), under a key of
   * the app's (its tool call id): an AG-UI context entry every later run carries, after the client's
   * `context`, until the app replaces it or `undefined` removes it (when the app goes away).
   */
  readonly setAppContext = (key: string, entry: Context | undefined): void => {
    if (entry === undefined) this.#appContexts.delete(key);
    else this.#appContexts.set(key, entry);
  };

  /**
   * Runs the browser tools the current turn handed to this client that never ran, then continues
   * the turn as usual. For a chat rebuilt from saved messages after a reload; `useChat` calls it
   * once the component mounts (never during server rendering). A call saved while it was executing
   * fails instead of running twice. Returns how many calls it picked up.
   */
  readonly runPendingTools = (): number => {
    if (this.#runner.busy()) return 0;
    const last = this.getSnapshot().messages.at(-1);
    const calls = last?.role === 'assistant' ? toolCallParts(last) : [];
    return this.#runner.tools.runPending(calls);
  };

  /**
   * Stops everything here, cancels queued messages and drops all listeners. A resumable run goes on
   * on the server (like after a reload): `stop()` first to stop it there too.
   */
  dispose(): void {
    this.clearQueue();
    this.#runner.stop(false);
    this.#store.clear();
  }
}
