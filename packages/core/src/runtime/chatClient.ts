import { findToolCall } from '../reduce/chatReducer.js';
import { initialChatState, type ActiveRun, type ChatSnapshot, type TurnRecord } from '../model/chatState.js';
import { BrowserToolRuntime } from './browserToolRuntime.js';
import { ChatStore } from './chatStore.js';
import type { Context, RunAgentInput } from '@ag-ui/core';
import type { ChatConnection } from '../transport/connection.js';
import { nextStep, pendingInterrupts } from '../model/continuation.js';
import type { ClientDiscovery } from '../discovery/clientManaged.js';
import { ChatwireError, describeError } from '../base/errors.js';
import { createId } from '../base/ids.js';
import { isProductionBuild, type InspectionObserver } from '../inspection/inspection.js';
import { toolCallParts, type ChatMessage, type MessagePart } from '../model/messages.js';
import type { AttachmentOptions } from './attachments.js';
import type { FileInput } from '../model/messages.js';
import type { CustomEventExtension } from '../reduce/customEvents.js';
import type { DataPartSchemas } from '../reduce/dataParts.js';
import type { GrantOption } from '../protocol/chatwireProtocol.js';
import type { SendQueue } from './sendQueue.js';
import type { AppToolCallInput, AppToolCallResult } from './appToolCall.js';
import { Turn } from './turn.js';
import { WireToolList, buildRunInput, loadReader, readRun, wireHistory, type HistoryMode, type ReconnectOptions } from './runRequest.js';
import { isTerminalToolCallState, type ToolCallEvent, type ToolCallPart } from '../lifecycle/toolCallLifecycle.js';
import type { AnyTool } from '../tools/toolDefinition.js';

/** The whole chat's wire messages: `sent` when the request carried all of them. */
const fullHistory = (snapshot: ChatSnapshot, sent: RunAgentInput['messages']) =>
  snapshot.storedMessageId === undefined ? sent : wireHistory(snapshot.messages);

/** How long a stop keeps a chat's first request open for the token of its run (see `ChatClient.stop`). */
const TOKEN_WAIT_MS = 10_000;

export type { ChatSnapshot } from '../model/chatState.js';

/** Options of {@link ChatClient}. Every callback is read at call time, so updates apply at once. */
export interface ChatClientOptions {
  /** How runs reach the agent, e.g. `fetchServerSentEvents('/api/chat')`. */
  readonly connection: ChatConnection;
  /** The conversation id, sent as the AG-UI `threadId`. Defaults to a random id. */
  readonly id?: string;
  /** Messages to start from (a saved conversation). Defaults to none. */
  readonly initialMessages?: readonly ChatMessage[];
  /**
   * Resumable streams: the saved `snapshot.activeRun` to start from (the run that was in flight
   * when the page went away), which `resumeStream()` reads again. Defaults to none.
   */
  readonly initialActiveRun?: ActiveRun;
  /** Resumable streams: the saved `snapshot.resumeToken` to start from. Defaults to none (the server issues one with the first run). */
  readonly initialResumeToken?: string;
  /**
   * Thread stores: the id of the last message of `initialMessages` that the server has stored (an app
   * that loads a stored thread itself passes its last message's id), which `snapshot.storedMessageId`
   * starts from. Defaults to none: until the server's `chatwire.thread.stored` event names one, every
   * request carries the whole chat.
   */
  readonly initialStoredMessageId?: string;
  /**
   * Which messages a request carries: `'stored'`, the messages from the last one the server has
   * stored on (`snapshot.storedMessageId`, while it is in the chat), else all of them; `'full'`,
   * always all of them (AG-UI's usual request). A server without a thread store never names a stored
   * message, so it always gets all of them. Defaults to `'stored'`.
   */
  readonly history?: HistoryMode;
  /**
   * Resumable streams: reconnect to a run whose connection dropped before it ended, when the server
   * announced resumable streams (see `ReconnectOptions`), or `false` to fail at once as before.
   * Defaults to 5 tries, waiting 0.5 s, 1 s, 2 s, 4 s and 5 s.
   */
  readonly reconnect?: ReconnectOptions | false;
  /**
   * Tools the browser knows: `.client(impl)` tools run here; bare definitions are announced to the
   * agent and answered with `addToolResult`. Defaults to none.
   */
  readonly tools?: readonly AnyTool[];
  /** AG-UI context entries sent with every run. Defaults to none. */
  readonly context?: readonly Context[];
  /** Automatic continuations (after client tools or approvals) allowed per user message. Defaults to 10. */
  readonly maxSteps?: number;
  /** Called when a turn ends with nothing left to do. */
  readonly onFinish?: (info: { readonly message: ChatMessage | undefined; readonly messages: readonly ChatMessage[] }) => void;
  /** Called when a turn ends in an error (the error is also in the snapshot). */
  readonly onError?: (error: ChatwireError) => void;
  /** Called when a tool call's input is complete, for every tool; answer app-handled ones with `addToolResult`. */
  readonly onToolCall?: (info: { readonly toolCall: ToolCallPart }) => void;
  /**
   * Called with every AG-UI `CUSTOM` event, in stream order, after it was applied (Chatwire's own
   * `chatwire.*` events included). Defaults to none.
   */
  readonly onCustomEvent?: (event: { readonly name: string; readonly value: unknown; readonly runId: string }) => void;
  /** Receives development warnings (refused transitions). Defaults to `console.warn` outside production. */
  readonly onWarning?: (message: string) => void;
  /**
   * Client-managed discovery: keep the catalog of lazy `tools` here, send only eager tools plus a
   * discovery tool, answer discovery calls locally, and send discovered tools' definitions on later
   * runs (`clientDiscovery()`, imported only by apps that use it). Works with any AG-UI server that
   * forwards frontend tools. Defaults to off (the server manages).
   */
  readonly manageDiscovery?: ClientDiscovery;
  /** Limits of `sendMessage({ files })` and the upload hook (see `AttachmentOptions`). Defaults to inline files of at most 2 MiB, 3 MiB per message. */
  readonly attachments?: AttachmentOptions;
  /**
   * `CUSTOM` events that become `data` parts of the assistant message, by name: a Standard Schema
   * the value's `data` must pass, or `true`. An event with the `id` of an earlier part replaces it;
   * an invalid one is dropped with a development warning. Defaults to none.
   */
  readonly dataParts?: DataPartSchemas;
  /**
   * Extensions whose `CUSTOM` events build state on the tool call they are about
   * (`part.extensions[name]`), such as Code Mode's `codeModeEvents` from `@chatwire/code-mode/client`:
   * plain data (a name, the prefix of its event names, a loader of its reducer), loaded while the
   * client's first run is under way. Events of an extension not listed here change nothing.
   * Defaults to none.
   */
  readonly customEvents?: readonly CustomEventExtension[];
  /**
   * Queue messages sent while a response is in progress and send them in order once the chat is
   * free (`snapshot.queued`; `cancelQueued(id)`, `clearQueue()`). A stopped or failed turn pauses
   * the queue until the next send. Defaults to `false`: such a send is refused with `busy`.
   */
  readonly queue?: boolean;
}

/** Arguments of {@link ChatClient.addToolResult}: an output, or an error for the model. */
export type ToolResultInput =
  { readonly toolCallId: string; readonly output: unknown } | { readonly toolCallId: string; readonly error: string };

/**
 * What `sendMessage` and `regenerate` resolve with: `sent` once the turn came to rest (finished,
 * failed with the error in the snapshot, stopped, or waiting on the user), or a refusal (`busy`
 * while a response streams, `invalid-argument` for empty text) that changed nothing. Never rejects.
 */
export type SendResult = { readonly sent: true } | { readonly sent: false; readonly error: ChatwireError };

/** What {@link ChatClient.sendMessage} takes besides a plain string. */
export interface SendMessageInput {
  /** The message text; may be empty when `files` are attached. */
  readonly text?: string;
  /**
   * Files to attach (a `FileList` from an `<input type="file">`, `File`s, `Blob`s, or `{ url }`):
   * they become `file` parts and travel as AG-UI image, audio, video or document parts. Checked
   * against `attachments` limits first; a refused send changes nothing. An edit replaces the files
   * too: pass the message's `file` parts (valid `{ url }` inputs) to keep them. (Typed as `ArrayLike`,
   * which a `FileList` is, so the types need no DOM library.)
   */
  readonly files?: ArrayLike<FileInput>;
  /** Kept on the user message (yours to read back; not sent to the agent). */
  readonly metadata?: Record<string, unknown>;
  /**
   * Edit and run again: the new text replaces the user message with this id, as a new message (its
   * own id), and the conversation runs again from it; every message after it is dropped.
   */
  readonly messageId?: string;
}

/**
 * Options of one send (`sendMessage(message, options)`, `regenerate(options)`): they apply to the
 * requests of that turn (its automatic continuations included), never to later messages.
 */
export interface SendOptions {
  /** Merged into the run input's `forwardedProps` (over the connection's own `body`). */
  readonly body?: Record<string, unknown>;
  /** Request headers (over the connection's own `headers`). */
  readonly headers?: Record<string, string>;
  /** AG-UI context entries sent after the client's `context`. */
  readonly context?: readonly Context[];
}

/** Arguments of {@link ChatClient.addToolApprovalResponse}. */
export interface ApprovalResponseInput {
  /** The approval id, `part.approval.id`. */
  readonly id: string;
  readonly approved: boolean;
  /** Shown to the model when the call is denied. */
  readonly reason?: string;
  /** A server's approval (see `part.approval.editable`): approve with these arguments instead (a full replacement). */
  readonly editedArgs?: Readonly<Record<string, unknown>>;
  /** A server's approval: remember the answer for this chat (`thread`) or always (one of `part.approval.grantOptions`). */
  readonly grant?: GrantOption;
  /** With `grant`: only for these exact arguments. */
  readonly grantArguments?: boolean;
}

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
  readonly #tools: BrowserToolRuntime;
  readonly #wireTools = new WireToolList();
  /**
   * The current turn: its request, its abort, its phase and step budget (see `Turn`). Never
   * missing: a chat that has not sent yet, or was stopped, has a resting turn without options.
   */
  #turn: Turn<SendOptions>;
  /** The send queue (`queue: true`), loaded with the first queued message. */
  #queue: SendQueue | undefined;
  /** What MCP Apps shown in the chat keep in the model's context, by app (see {@link setAppContext}). */
  readonly #appContexts = new Map<string, Context>();

  constructor(options: ChatClientOptions) {
    this.#options = options;
    this.id = options.id ?? createId('chat');
    this.#turn = this.#newTurn(undefined);
    this.#store = new ChatStore(
      this.id,
      {
        ...initialChatState(options.initialMessages),
        activeRun: options.initialActiveRun,
        resumeToken: options.initialResumeToken,
        storedMessageId: options.initialStoredMessageId,
      },
      {
        perform: (changes) => this.#tools.perform(changes),
        warn: (message) => this.#warn(message),
      },
    );
    this.#tools = new BrowserToolRuntime({
      store: this.#store,
      tools: () => this.#options.tools ?? [],
      manageDiscovery: () => this.#options.manageDiscovery,
      onToolCall: (toolCall) => this.#options.onToolCall?.({ toolCall }),
      turn: () => this.#turn,
      settled: (turn) => this.#maybeContinue(turn),
      warn: (message) => this.#warn(message),
    });
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

  /** Replaces some options; later requests and callbacks use the new values. */
  updateOptions(
    options: Partial<
      Omit<ChatClientOptions, 'id' | 'initialMessages' | 'initialActiveRun' | 'initialResumeToken' | 'initialStoredMessageId'>
    >,
  ): void {
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
      return this.#refuse(new ChatwireError('invalid-argument', 'sendMessage needs non-empty text or files.'));
    }
    if (messageId !== undefined && !this.getSnapshot().messages.some((item) => item.id === messageId && item.role === 'user')) {
      return this.#refuse(new ChatwireError('invalid-argument', `sendMessage: there is no user message '${messageId}' to edit.`));
    }
    // Queued messages go in order: a send waits behind them even when the chat is free.
    if (this.#options.queue && messageId === undefined && (this.#busy() || this.getSnapshot().queued.length > 0)) {
      return import('./sendQueue.js').then((module) =>
        (this.#queue ??= new module.SendQueue(
          this.#store,
          () => this.#busy(),
          (...args) => this.#send(...args),
        )).add(input, options, createId('msg')),
      );
    }
    if (this.#busy()) return this.#refuse(this.#busyError());
    // An edit is a new message, never the old id with other text: a thread store keeps what it stored under an id.
    return this.#send(input, options, createId('msg'));
  };

  /**
   * Takes a message out of the send queue before it is sent; its `sendMessage` resolves
   * `{ sent: false }` with a `cancelled` error. Returns `false` when it is no longer queued (sent already).
   */
  readonly cancelQueued = (id: string): boolean => {
    return this.#queue?.cancel(id) ?? false;
  };

  /** Cancels every queued message (see {@link cancelQueued}). */
  readonly clearQueue = (): void => {
    this.#queue?.clear();
  };

  /**
   * Answers an interrupt the agent raised (an `interrupt` part: any reason but a tool approval),
   * with the payload its `responseSchema` describes. Once nothing else waits, the next run carries
   * the answer as a resume entry. Throws `unknown-interrupt` when no such interrupt waits.
   */
  readonly respondToInterrupt = (response: { readonly id: string; readonly payload?: unknown }): void => {
    this.#answerInterrupt(response.id, 'resolved', response.payload);
  };

  /** Declines an interrupt: the next run carries it as `cancelled`. Throws `unknown-interrupt` when no such interrupt waits. */
  readonly cancelInterrupt = (id: string): void => {
    this.#answerInterrupt(id, 'cancelled', undefined);
  };

  #answerInterrupt(id: string, status: 'resolved' | 'cancelled', payload: unknown): void {
    if (!pendingInterrupts(this.getSnapshot().messages).some((part) => part.id === id)) {
      throw new ChatwireError('unknown-interrupt', `There is no pending interrupt '${id}'.`);
    }
    this.#store.dispatch({ type: 'interruptResponse', id, status, payload, now: Date.now() });
    this.#maybeContinue(this.#turn);
  }

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
  readonly regenerate = (options?: SendOptions): Promise<SendResult> => {
    if (this.#busy()) return this.#refuse(this.#busyError());
    const messages = this.getSnapshot().messages;
    let end = messages.length;
    while (end > 0 && messages[end - 1]?.role !== 'user') end--;
    if (end === 0) return this.#refuse(new ChatwireError('invalid-argument', 'There is no user message to regenerate from.'));
    this.stop();
    this.#store.dispatch({ type: 'setMessages', messages: messages.slice(0, end) });
    return this.#startTurn(this.#newTurn(options));
  };

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
    if (!activeRun || !resumeToken || this.#busy()) return Promise.resolve();
    return this.#startTurn(this.#newTurn(undefined), activeRun).then(() => {});
  };

  /**
   * Stops the current response: aborts the request and running tools, keeps what arrived. On a
   * server with resumable streams, asks it to stop the run too (`DELETE`), also a resumed one, and
   * one whose response has not arrived yet (a chat's first run: once its `RUN_STARTED` brings the
   * token, the request kept open until then without applying anything). A
   * message whose files are still being read or uploaded is not sent. Queued messages stay queued
   * (paused until the next send).
   */
  readonly stop = (): void => {
    this.#stop(true);
  };

  /** Stops the current response; `remote`: a resumable run is stopped on the server too (else the reader only detaches). */
  #stop(remote: boolean): void {
    // The turn's run in flight, named before the turn ends; else a run kept after a failed turn: it may still be going on the server.
    const inFlight = this.#turn.run;
    if (remote) {
      this.#stopRemote(inFlight);
      // No token yet (a chat's first run, before its response): the request stays open until its RUN_STARTED brings one.
      if (!this.getSnapshot().resumeToken && this.#options.connection.stop) this.#turn.keepForToken(TOKEN_WAIT_MS);
    }
    const { phase } = this.#turn;
    if (!this.#busy()) return;
    this.#turn.end();
    // Files being read: nothing was sent, so there is nothing to close in the chat.
    if (phase !== 'preparing') {
      this.#tools.abortAll();
      // While the ended turn is still the chat's: what the stop settles starts no continuation.
      this.#store.dispatch({ type: 'stopped', now: Date.now() });
    }
    this.#turn = this.#newTurn(undefined);
  }

  /**
   * Asks the server to stop a resumable run (`DELETE`): `inFlight`, the current turn's run whose
   * request is open, else the run a failed turn kept (`snapshot.activeRun`). The run in flight is
   * named by the id its request was sent with, so a stop pressed before its response arrived names
   * it too (never the previous run); a stop that overtakes the request is kept by the server until
   * the run starts, and ends it then. With no token yet (a chat's first run, before its response
   * arrived) there is nothing to prove the stop with: the request is aborted, and the server stops a
   * first run whose request left before it started.
   */
  #stopRemote(inFlight?: string, resumeToken = this.getSnapshot().resumeToken): void {
    const runId = inFlight ?? this.getSnapshot().activeRun?.runId;
    if (runId !== undefined && resumeToken) {
      this.#options.connection
        .stop?.({ threadId: this.id, runId, token: resumeToken })
        .catch((error: unknown) => this.#warn(`Could not stop the run on the server: ${describeError(error)}`));
    }
  }

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
    const found = findToolCall(this.getSnapshot().messages, (call) => call.toolCallId === result.toolCallId);
    if (!found) throw new ChatwireError('unknown-tool-call', `addToolResult: there is no tool call '${result.toolCallId}'.`);
    if (isTerminalToolCallState(found.call.state)) {
      throw new ChatwireError(
        'tool-call-settled',
        `addToolResult: tool call '${result.toolCallId}' (${found.call.toolName}) already has its result.`,
      );
    }
    if (found.call.state !== 'input-complete' && found.call.state !== 'executing') {
      throw new ChatwireError(
        'invalid-argument',
        `addToolResult: tool call '${result.toolCallId}' is '${found.call.state}', not waiting for a result.`,
      );
    }
    const event: ToolCallEvent =
      'error' in result
        ? { type: 'fail', error: result.error }
        : { type: 'output', output: result.output, content: JSON.stringify(result.output === undefined ? null : result.output) };
    this.#store.dispatch({ type: 'toolCall', toolCallId: result.toolCallId, event, now: Date.now(), owner: 'client', answer: true });
  };

  /**
   * Answers an approval request. Approving a browser tool runs it; denying cancels the call and
   * tells the model. Throws `unknown-approval` when no call waits on this id.
   */
  readonly addToolApprovalResponse = (response: ApprovalResponseInput): void => {
    const found = findToolCall(this.getSnapshot().messages, (call) => call.approval?.id === response.id);
    if (!found || found.call.state !== 'approval-requested') {
      throw new ChatwireError(
        'unknown-approval',
        `There is no pending approval '${response.id}'${found ? ` (already answered: the call is '${found.call.state}')` : ''}.`,
      );
    }
    const { id: _id, approved, reason, ...answer } = response;
    const event: ToolCallEvent = { type: 'approvalResponse', approved, reason, answer };
    this.#store.dispatch({ type: 'toolCall', toolCallId: found.call.toolCallId, event, now: Date.now(), answer: true });
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
    return import('./appToolCall.js').then((module) =>
      module.callAppTool(
        {
          getSnapshot: this.getSnapshot,
          subscribe: this.subscribe,
          whenIdle: (signal) => this.#whenIdle(signal),
          start: (options) => this.#startTurn(this.#newTurn(options)),
        },
        input,
      ),
    );
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
    if (this.#busy()) return 0;
    const last = this.getSnapshot().messages.at(-1);
    const calls = last?.role === 'assistant' ? toolCallParts(last) : [];
    return this.#tools.runPending(calls);
  };

  /**
   * Stops everything here, cancels queued messages and drops all listeners. A resumable run goes on
   * on the server (like after a reload): `stop()` first to stop it there too.
   */
  dispose(): void {
    this.clearQueue();
    this.#stop(false);
    this.#store.clear();
  }

  #warn(message: string): void {
    const { inspector } = this.#store;
    if (inspector.active) inspector.emit({ type: 'warning', at: Date.now(), message });
    if (this.#options.onWarning) this.#options.onWarning(message);
    else if (!isProductionBuild()) console.warn(`[chatwire] ${message}`);
  }

  // ---------------------------------------------------------------------------------------------
  // Turns and runs

  /** The one answer to "is a response in progress": the current turn's (see `Turn.busy`). */
  #busy(): boolean {
    return this.#turn.busy(this.getSnapshot().status);
  }

  /** Resolves `true` once no response is in progress (at once when none is), `false` when `signal` aborts first. */
  async #whenIdle(signal: AbortSignal | undefined): Promise<boolean> {
    while (this.#busy()) {
      if (signal?.aborted) return false;
      const turn = this.#turn;
      const aborted = new Promise<void>((resolve) => signal?.addEventListener('abort', () => resolve(), { once: true }));
      // A turn at rest whose snapshot still streams changes with the next dispatch.
      const next =
        turn.phase === 'resting'
          ? new Promise<void>((resolve) => {
              const unsubscribe = this.subscribe(() => {
                unsubscribe();
                resolve();
              });
            })
          : turn.nextRest();
      await Promise.race([next, aborted]);
    }
    return !signal?.aborted;
  }

  #newTurn(options: SendOptions | undefined): Turn<SendOptions> {
    return new Turn(options, () => this.#tools.busy);
  }

  /** Ends the current turn (stopped or replaced) and makes `turn` the chat's. */
  #replaceTurn(turn: Turn<SendOptions>): void {
    this.#turn.end();
    this.#turn = turn;
  }

  /** Reads the files (when there are some), appends the user message and starts its turn. */
  async #send(input: SendMessageInput, options: SendOptions | undefined, id: string): Promise<SendResult> {
    const { text = '', files, metadata, messageId } = input;
    const parts: MessagePart[] = text ? [{ type: 'text', text, state: 'done' }] : [];
    if (files?.length) {
      // The chat is busy while the files are read, and `stop()` aborts the reading.
      const current = this.#turn;
      const signal = current.prepare();
      try {
        // Reading and uploading files is loaded the first time a message has some; it throws only ChatwireErrors.
        const attachments = await import('./attachments.js');
        parts.push(...(await attachments.readAttachments(files, this.#options.attachments, signal)));
      } catch (error) {
        return this.#refuse(error as ChatwireError);
      } finally {
        current.prepared();
      }
      // Stopped while the files were read: nothing is sent.
      if (!current.current) return this.#refuse(new ChatwireError('cancelled', 'The message was stopped before it was sent.'));
      // An answer given meanwhile (an approval) may have started a continuation.
      if (this.#busy()) return this.#refuse(this.#busyError());
    }
    const now = Date.now();
    if (this.#store.inspector.active) this.#store.inspector.emit({ type: 'turn', at: now, id });
    this.#store.dispatch({
      type: 'userMessage',
      message: { id, role: 'user', parts, createdAt: now, ...(metadata ? { metadata } : {}) },
      ...(messageId === undefined ? {} : { replaces: messageId }),
    });
    return this.#startTurn(this.#newTurn(options));
  }

  #busyError(): ChatwireError {
    return new ChatwireError('busy', 'A response is still in progress: wait for it to finish or call stop() before sending again.');
  }

  /** A command that cannot run changes nothing, says why in development, and resolves (never rejects). */
  #refuse(error: ChatwireError): Promise<SendResult> {
    this.#warn(`${error.message} (${error.code}; nothing was sent)`);
    return Promise.resolve({ sent: false, error });
  }

  /** Starts `turn` (replacing the current one, if it is not that one already): a new run, or (`resuming`) the active run read again. */
  #startTurn(turn: Turn<SendOptions>, resuming?: ActiveRun): Promise<SendResult> {
    // A run still active here is one a failed turn kept (to read it again later; a run's end clears
    // it): the new turn replaces it, so it stops first.
    if (!resuming) this.#stopRemote();
    if (this.#turn !== turn) this.#replaceTurn(turn);
    void this.#run(turn, resuming);
    return turn.rested;
  }

  async #run(turn: Turn<SendOptions>, resuming?: ActiveRun): Promise<void> {
    const runId = resuming?.runId ?? createId('run');
    const controller = turn.request(runId);
    const store = this.#store;
    const tools = this.#wireTools.get(this.#options.tools, this.#options.manageDiscovery, this.getSnapshot().messages);
    const send = turn.options;
    const context = this.#appContexts.size > 0 ? [...(this.#options.context ?? []), ...this.#appContexts.values()] : this.#options.context;
    const input = buildRunInput({ store, runId, tools, context, send, history: this.#options.history });
    // A run read again was sent before: its resume entries went with it.
    store.dispatch({ type: 'requestStarted', runId, ...(resuming ? { readAgain: true } : {}) });
    const managed = this.#options.manageDiscovery;
    if (managed && !resuming)
      store.dispatch({
        type: 'usage',
        // The model reads the whole chat even when the request carries only what follows its stored part.
        usage: managed.usage(runId, tools, this.#options.tools ?? [], fullHistory(store.getSnapshot(), input.messages)),
        now: Date.now(),
      });
    if (store.inspector.active) store.inspector.emit({ type: 'request', at: Date.now(), runId, input });

    let ending: Awaited<ReturnType<typeof readRun>>;
    try {
      ending = await readRun({
        store,
        client: this.#options,
        input,
        signal: controller.signal,
        send,
        resuming: resuming !== undefined,
        warn: (message) => this.#warn(message),
        isCurrent: () => turn.current,
        onRunStarted: () => turn.runStarted(),
        // A request a stop kept open (see `#stop`): its run is stopped under the token its RUN_STARTED brought.
        onStale: (token, stream) => {
          if (!turn.keptForToken(controller)) return false;
          if (token) this.#stopRemote(runId, token);
          controller.abort();
          void stream.return?.(undefined)?.catch(() => {});
          return true;
        },
        onCustomEvent: (event) => {
          try {
            this.#options.onCustomEvent?.(event);
          } catch (error) {
            this.#warn(`onCustomEvent threw: ${describeError(error)}`);
          }
        },
      });
    } catch (error) {
      if (!turn.current || controller.signal.aborted) return;
      this.#fail(turn, error instanceof ChatwireError ? error : new ChatwireError('network', describeError(error), { cause: error }));
      return;
    } finally {
      turn.requestEnded(controller);
    }
    if (ending === undefined) return;
    if (ending !== 'finished') {
      this.#tools.abortAll();
      const error = this.getSnapshot().error;
      if (error) this.#options.onError?.(error);
      turn.rest();
      return;
    }
    // Browser tools that started while the stream was read decide again as they settle.
    this.#maybeContinue(turn);
  }

  #fail(turn: Turn<SendOptions>, error: ChatwireError): void {
    this.#tools.abortAll();
    this.#store.dispatch({ type: 'failed', error, now: Date.now() });
    if (this.#store.inspector.active) this.#store.inspector.emit({ type: 'error', at: Date.now(), error });
    this.#options.onError?.(error);
    turn.rest();
  }

  /**
   * Decides what follows once nothing streams, from the snapshot (see `nextStep`): wait for the
   * user, continue automatically (within the step budget), or end the turn.
   */
  #maybeContinue(of: Turn<unknown>): void {
    const turn = this.#turn;
    // What the browser still decides or runs shows in the snapshot (`nextStep` says `running`).
    if (of !== turn || !turn.current || turn.streaming) return;
    const snapshot = this.getSnapshot();
    if (snapshot.status === 'error') return;
    const step = nextStep(snapshot);
    if (step === 'running') return;
    if (step === 'waiting' || step === 'finish') {
      this.#store.dispatch({ type: 'settled' });
      turn.rest();
      if (step === 'finish') {
        const last = snapshot.messages[snapshot.messages.length - 1];
        this.#options.onFinish?.({ message: last?.role === 'assistant' ? last : undefined, messages: this.getSnapshot().messages });
        this.#queue?.drain();
      }
      return;
    }
    const budget = this.#options.maxSteps ?? 10;
    if (turn.steps >= budget) {
      this.#fail(turn, new ChatwireError('step-budget', `Stopped after ${budget} automatic continuations in one turn (maxSteps).`));
      return;
    }
    turn.steps++;
    void this.#run(turn);
  }
}
