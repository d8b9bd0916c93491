import type { Context, EventType, Interrupt, ResumeEntry, RunAgentInput, Tool as WireTool } from '@ag-ui/core';
import { findToolCall, reduceChat, type ChatAction, type ChatState, type Reduction } from './chatReducer.js';
import type { ChatConnection } from './connection.js';
import { ChatwireError, describeError } from './errors.js';
import { createId } from './ids.js';
import { EventHistory, type EventHistoryOptions, type HistoryTurn } from './eventHistory.js';
import { Inspector, isProductionBuild, type InspectionObserver } from './inspection.js';
import { discoveredToolsInChat, selfCorrectionError } from './discovery.js';
import type { ClientDiscovery } from './clientDiscovery.js';
import { toWireMessages, type ChatMessage } from './messages.js';
import { parseWireEvent } from './parseWireEvent.js';
import { DISCOVERY_TOOL_NAME, INTERRUPT_REASONS } from './protocol.js';
import { executeTool } from './toolExecution.js';
import { isTerminalToolCallState, type ToolCallEvent, type ToolCallPart } from './toolCallLifecycle.js';
import { resolveNeedsApproval, toWireTool, validateToolInput, type AnyTool, type ClientTool } from './toolDefinition.js';

/** Options of {@link ChatClient}. Every callback is read at call time, so updates apply at once. */
export interface ChatClientOptions {
  /** How runs reach the agent, e.g. `fetchServerSentEvents('/api/chat')`. */
  readonly connection: ChatConnection;
  /** The conversation id, sent as the AG-UI `threadId`. Defaults to a random id. */
  readonly id?: string;
  /** Messages to start from (a saved conversation). Defaults to none. */
  readonly initialMessages?: readonly ChatMessage[];
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
  /** Receives development warnings (refused transitions). Defaults to `console.warn` outside production. */
  readonly onWarning?: (message: string) => void;
  /**
   * Client-managed discovery: keep the catalog of lazy `tools` here, send only eager tools plus a
   * discovery tool, answer discovery calls locally, and send discovered tools' definitions on later
   * runs (`clientDiscovery()`, imported only by apps that use it). Works with any AG-UI server that
   * forwards frontend tools. Defaults to off (the server manages).
   */
  readonly manageDiscovery?: ClientDiscovery;
  /** The bounded history of requests and events devtools read (`getHistory()`). `false` turns it off. Defaults to 50 turns. */
  readonly history?: EventHistoryOptions | false;
}

/** The snapshot a {@link ChatClient} exposes: messages, status and error, plus the chat id. */
export interface ChatSnapshot extends ChatState {
  readonly id: string;
}

/** Arguments of {@link ChatClient.addToolResult}: an output, or an error for the model. */
export type ToolResultInput = { readonly toolCallId: string; readonly output: unknown } | { readonly toolCallId: string; readonly error: string };

/**
 * What `sendMessage` and `regenerate` resolve with: `sent` once the turn came to rest (finished,
 * failed with the error in the snapshot, stopped, or waiting on the user), or a refusal (`busy`
 * while a response streams, `invalid-argument` for empty text) that changed nothing. Never rejects.
 */
export type SendResult = { readonly sent: true } | { readonly sent: false; readonly error: ChatwireError };

/** Arguments of {@link ChatClient.addToolApprovalResponse}. */
export interface ApprovalResponseInput {
  /** The approval id, `part.approval.id`. */
  readonly id: string;
  readonly approved: boolean;
  /** Shown to the model when the call is denied. */
  readonly reason?: string;
}

/** Tool calls that wait on the user or the app, which stop automatic continuation. */
const waitsOnUser = (call: ToolCallPart) => call.state === 'approval-requested' || call.state === 'input-complete';

/**
 * The headless chat: one immutable snapshot behind `subscribe` / `getSnapshot`, commands that
 * dispatch through a single reducer, AG-UI runs over a pluggable connection, browser tools,
 * approvals and automatic continuation.
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
  #snapshot: ChatSnapshot;
  #listeners = new Set<() => void>();
  #inspector = new Inspector();
  /** The request in flight, if any. */
  #request: AbortController | undefined;
  /** Client tool executions in flight, by tool call id. */
  #running = new Map<string, { readonly promise: Promise<void>; readonly controller: AbortController }>();
  /** Interrupts from the last finished run, answered by the next run's resume entries. */
  #interrupts: readonly Interrupt[] = [];
  /** Answers the client produced since the last request (what makes a continuation worthwhile). */
  #freshAnswers = 0;
  /** Automatic continuations used in this turn. */
  #steps = 0;
  /** Changes whenever a turn is stopped or replaced; async work from an older turn checks it. */
  #generation = 0;
  #wireToolsCache:
    | { readonly tools: readonly AnyTool[] | undefined; readonly managed: ClientDiscovery | undefined; readonly key: string; readonly wire: WireTool[] }
    | undefined;
  /** Resolves the promise `sendMessage` returned, once the turn comes to rest. */
  #resolveTurn: (() => void) | undefined;
  /** Lazy browser calls whose discovery may still arrive before the run ends. */
  #lazyWaiting = new Set<string>();
  /** Event types already warned about as unknown (one warning per type). */
  #unknownTypes: Set<string> | undefined;
  #history: EventHistory | undefined;

  constructor(options: ChatClientOptions) {
    this.#options = options;
    this.id = options.id ?? createId('chat');
    this.#snapshot = { id: this.id, messages: options.initialMessages ?? [], status: 'ready', error: undefined, turns: [] };
    this.#history = options.history === false ? undefined : new EventHistory(options.history);
  }

  /** Subscribes to snapshot changes; returns the unsubscribe function. */
  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  };

  /** The current snapshot. The same object until something changes. */
  getSnapshot = (): ChatSnapshot => this.#snapshot;

  /** Observes everything the client does (requests, events, tool-call transitions). Free without observers. */
  inspect(observer: InspectionObserver): () => void {
    return this.#inspector.observe(observer);
  }

  /** The last turns' requests and events (bounded; see the `history` option), oldest first. */
  getHistory(): readonly HistoryTurn[] {
    return this.#history?.turns() ?? [];
  }

  /** Replaces some options; later requests and callbacks use the new values. */
  updateOptions(options: Partial<Omit<ChatClientOptions, 'id' | 'initialMessages'>>): void {
    this.#options = { ...this.#options, ...options };
  }

  /** The options in effect. */
  get options(): ChatClientOptions {
    return this.#options;
  }

  /**
   * Sends a user message and runs the turn to its end (including automatic continuations). Never
   * rejects: while a response is streaming, or for empty text, it resolves `{ sent: false, error }`
   * and changes nothing; stream failures become `status: 'error'` and resolve `{ sent: true }`.
   */
  sendMessage(message: string | { readonly text: string; readonly metadata?: Record<string, unknown> }): Promise<SendResult> {
    const text = typeof message === 'string' ? message : message?.text;
    if (this.#isBusy()) return this.#refuse(this.#busyError());
    if (typeof text !== 'string' || text.trim() === '') {
      return this.#refuse(new ChatwireError('invalid-argument', 'sendMessage needs a non-empty text.'));
    }
    this.#supersedePending();
    const metadata = typeof message === 'string' ? undefined : message.metadata;
    const id = createId('msg');
    this.#history?.startTurn(id, Date.now());
    this.#dispatch({
      type: 'userMessage',
      message: {
        id,
        role: 'user',
        parts: [{ type: 'text', text, state: 'done' }],
        createdAt: Date.now(),
        ...(metadata ? { metadata } : {}),
      },
    });
    return this.#startTurn();
  }

  /**
   * Drops the last assistant turn and asks again. Like `sendMessage`, never rejects: resolves
   * `{ sent: false, error }` (`busy`, or `invalid-argument` without a user message) and changes nothing.
   */
  regenerate(): Promise<SendResult> {
    if (this.#isBusy()) return this.#refuse(this.#busyError());
    const messages = this.#snapshot.messages;
    let end = messages.length;
    while (end > 0 && messages[end - 1]?.role !== 'user') end--;
    if (end === 0) return this.#refuse(new ChatwireError('invalid-argument', 'There is no user message to regenerate from.'));
    this.stop();
    this.#interrupts = [];
    this.#dispatch({ type: 'setMessages', messages: messages.slice(0, end) });
    return this.#startTurn();
  }

  /** Stops the current response: aborts the request and running tools, keeps what arrived. */
  stop(): void {
    const active = this.#request !== undefined || this.#running.size > 0 || this.#isBusy();
    if (!active) return;
    this.#generation++;
    this.#request?.abort();
    this.#request = undefined;
    this.#abortRunningTools();
    this.#dispatch({ type: 'stopped', now: Date.now() });
    this.#restTurn();
  }

  /** Replaces the messages (stopping any response first). */
  setMessages(messages: readonly ChatMessage[] | ((current: readonly ChatMessage[]) => readonly ChatMessage[])): void {
    this.stop();
    this.#interrupts = [];
    const next = typeof messages === 'function' ? messages(this.#snapshot.messages) : messages;
    this.#dispatch({ type: 'setMessages', messages: next });
  }

  /**
   * Answers a tool call the app handles itself. Throws `unknown-tool-call` when no such call exists
   * and `tool-call-settled` when it already has a result.
   */
  addToolResult(result: ToolResultInput): void {
    const found = findToolCall(this.#snapshot.messages, (call) => call.toolCallId === result.toolCallId);
    if (!found) throw new ChatwireError('unknown-tool-call', `addToolResult: there is no tool call '${result.toolCallId}'.`);
    if (isTerminalToolCallState(found.call.state)) {
      throw new ChatwireError('tool-call-settled', `addToolResult: tool call '${result.toolCallId}' (${found.call.toolName}) already has its result.`);
    }
    if (found.call.state !== 'input-complete' && found.call.state !== 'executing') {
      throw new ChatwireError('invalid-argument', `addToolResult: tool call '${result.toolCallId}' is '${found.call.state}', not waiting for a result.`);
    }
    const event: ToolCallEvent =
      'error' in result
        ? { type: 'fail', error: result.error }
        : { type: 'output', output: result.output, content: JSON.stringify(result.output === undefined ? null : result.output) };
    this.#answer(result.toolCallId, event, 'client');
    this.#maybeContinue(this.#generation);
  }

  /**
   * Answers an approval request. Approving a browser tool runs it; denying cancels the call and
   * tells the model. Throws `unknown-approval` when no call waits on this id.
   */
  addToolApprovalResponse(response: ApprovalResponseInput): void {
    const found = findToolCall(this.#snapshot.messages, (call) => call.approval?.id === response.id);
    if (!found || found.call.state !== 'approval-requested') {
      throw new ChatwireError(
        'unknown-approval',
        found
          ? `Approval '${response.id}' was already answered (the call is '${found.call.state}').`
          : `There is no pending approval '${response.id}'.`,
      );
    }
    const { call } = found;
    this.#answer(call.toolCallId, {
      type: 'approvalResponse',
      approved: response.approved,
      ...(response.reason === undefined ? {} : { reason: response.reason }),
    });
    if (call.approval?.requestedBy === 'client') {
      if (response.approved) {
        const tool = this.#clientTool(call.toolName);
        if (tool) this.#execute(call.toolCallId, tool, call.input);
      } else this.#answer(call.toolCallId, { type: 'cancel', reason: 'denied' });
    }
    this.#maybeContinue(this.#generation);
  }

  /** Stops everything and drops all listeners and inspectors. */
  dispose(): void {
    this.stop();
    this.#listeners.clear();
  }

  // ---------------------------------------------------------------------------------------------
  // The one door: every state change goes through here.

  #dispatch(action: ChatAction): Reduction {
    const previous = this.#snapshot;
    const reduction = reduceChat(previous, action);
    const inspecting = this.#inspector.active;
    for (const change of reduction.changes) {
      if (inspecting) this.#inspector.emit({ type: 'toolCall', at: Date.now(), change });
      if (change.refused) this.#warn(change.refused);
    }
    if (reduction.state !== previous) {
      this.#snapshot = { ...reduction.state, id: this.id };
      if (inspecting && previous.status !== reduction.state.status) {
        this.#inspector.emit({ type: 'status', at: Date.now(), from: previous.status, to: reduction.state.status });
      }
      for (const listener of this.#listeners) {
        try {
          listener();
        } catch (error) {
          this.#warn(`A chat listener threw: ${describeError(error)}`);
        }
      }
    }
    for (const change of reduction.changes) {
      for (const effect of change.effects) {
        if (effect.type === 'inputReady') void this.#onInputReady(change.toolCallId);
      }
    }
    return reduction;
  }

  #warn(message: string): void {
    if (this.#inspector.active) this.#inspector.emit({ type: 'warning', at: Date.now(), message });
    if (this.#options.onWarning) this.#options.onWarning(message);
    else if (!isProductionBuild()) console.warn(`[chatwire] ${message}`);
  }

  /** Applies a client-produced tool-call event and counts it as news for the next request. */
  #answer(toolCallId: string, event: ToolCallEvent, owner?: 'client'): void {
    const reduction = this.#dispatch({ type: 'toolCall', toolCallId, event, now: Date.now(), ...(owner ? { owner } : {}) });
    if (reduction.changes.some((change) => !change.refused)) this.#freshAnswers++;
  }

  // ---------------------------------------------------------------------------------------------
  // Turns and runs

  #isBusy(): boolean {
    const { status } = this.#snapshot;
    return status === 'submitted' || status === 'streaming';
  }

  #busyError(): ChatwireError {
    return new ChatwireError('busy', 'A response is still in progress: wait for it to finish or call stop() before sending again.');
  }

  /** A command that cannot run changes nothing, says why in development, and resolves (never rejects). */
  #refuse(error: ChatwireError): Promise<SendResult> {
    this.#warn(`${error.message} (${error.code}; nothing was sent)`);
    return Promise.resolve({ sent: false, error });
  }

  #startTurn(): Promise<SendResult> {
    this.#restTurn();
    this.#steps = 0;
    this.#generation++;
    const done = new Promise<SendResult>((resolve) => {
      this.#resolveTurn = () => resolve({ sent: true });
    });
    void this.#run(this.#generation);
    return done;
  }

  /** The turn came to rest (finished, failed, stopped or waiting on the user). */
  #restTurn(): void {
    const resolve = this.#resolveTurn;
    this.#resolveTurn = undefined;
    resolve?.();
  }

  /**
   * Calls of the last turn still waiting on the user are settled when the user moves on: a server's
   * approval request is answered with a denial (the server records it), anything else is cancelled.
   */
  #supersedePending(): void {
    const last = this.#snapshot.messages[this.#snapshot.messages.length - 1];
    if (last?.role !== 'assistant') return;
    const reason = 'superseded by a new message';
    for (const part of last.parts) {
      if (part.type !== 'tool-call' || isTerminalToolCallState(part.state)) continue;
      if (part.state === 'approval-requested' && part.approval?.requestedBy === 'server') {
        this.#dispatch({ type: 'toolCall', toolCallId: part.toolCallId, event: { type: 'approvalResponse', approved: false, reason, by: 'auto' }, now: Date.now() });
      } else if (part.state !== 'approval-responded') {
        this.#dispatch({ type: 'toolCall', toolCallId: part.toolCallId, event: { type: 'cancel', reason }, now: Date.now() });
      }
    }
  }

  async #run(generation: number): Promise<void> {
    const controller = new AbortController();
    this.#request = controller;
    const runId = createId('run');
    const resume = this.#resumeEntries();
    const messages = toWireMessages(this.#snapshot.messages);
    const tools = this.#wireTools();
    const input: RunAgentInput = {
      threadId: this.id,
      runId,
      messages,
      tools,
      context: [...(this.#options.context ?? [])],
      state: {},
      forwardedProps: {},
      ...(resume.length > 0 ? { resume } : {}),
    };
    this.#interrupts = [];
    this.#freshAnswers = 0;
    this.#dispatch({ type: 'requestStarted' });
    if (this.#options.manageDiscovery) {
      this.#dispatch({ type: 'usage', usage: this.#options.manageDiscovery.usage(runId, tools, this.#options.tools ?? [], messages), now: Date.now() });
    }
    this.#history?.request(runId, input, Date.now());
    if (this.#inspector.active) this.#inspector.emit({ type: 'request', at: Date.now(), runId, input });

    let ending: 'finished' | 'error' | undefined;
    try {
      for await (const raw of this.#options.connection.run(input, { signal: controller.signal })) {
        if (generation !== this.#generation) return;
        const parsed = parseWireEvent(raw);
        if (!parsed.known) {
          this.#ignoreUnknown(parsed.type);
          continue;
        }
        const event = parsed.event;
        this.#history?.event(runId, event, Date.now());
        if (this.#inspector.active) this.#inspector.emit({ type: 'event', at: Date.now(), runId, event });
        if (ending) continue; // nothing may follow the end of a run
        const reduction = this.#dispatch({ type: 'wireEvent', event, now: Date.now() });
        if (event.type === ('RUN_FINISHED' as EventType.RUN_FINISHED)) {
          ending = 'finished';
          this.#interrupts = reduction.interrupts;
        } else if (event.type === ('RUN_ERROR' as EventType.RUN_ERROR)) ending = 'error';
      }
      if (generation !== this.#generation || controller.signal.aborted) return;
      if (!ending) {
        throw new ChatwireError('stream-truncated', 'The response ended before the run finished, so the answer may be incomplete. Try again.');
      }
    } catch (error) {
      if (generation !== this.#generation || controller.signal.aborted) return;
      this.#fail(error instanceof ChatwireError ? error : new ChatwireError('network', describeError(error), { cause: error }));
      return;
    } finally {
      if (this.#request === controller) this.#request = undefined;
    }

    this.#settleLazyWaiting();
    if (ending === 'error') {
      this.#abortRunningTools();
      const error = this.#snapshot.error;
      if (error) this.#options.onError?.(error);
      this.#restTurn();
      return;
    }
    // Browser tools that started while the stream was read call #maybeContinue as they settle;
    // the last one to settle is the one that gets past its guard.
    this.#maybeContinue(generation);
  }

  /** AG-UI may grow: an event type 1.0 does not define is skipped, with one development warning per type. */
  #ignoreUnknown(type: string): void {
    this.#unknownTypes ??= new Set();
    if (this.#unknownTypes.has(type)) return;
    this.#unknownTypes.add(type);
    this.#warn(`Ignored events of type '${type}': AG-UI 1.0 does not define it (a newer server?).`);
  }

  #fail(error: ChatwireError): void {
    this.#abortRunningTools();
    this.#dispatch({ type: 'failed', error, now: Date.now() });
    if (this.#inspector.active) this.#inspector.emit({ type: 'error', at: Date.now(), error });
    this.#options.onError?.(error);
    this.#restTurn();
  }

  #abortRunningTools(): void {
    for (const { controller } of this.#running.values()) controller.abort();
    this.#running.clear();
    this.#lazyWaiting.clear();
  }

  /**
   * Decides what follows a run: wait for the user, continue automatically (when something new
   * happened and the step budget allows), or end the turn.
   */
  #maybeContinue(generation: number): void {
    if (generation !== this.#generation || this.#request || this.#running.size > 0) return;
    if (this.#snapshot.status === 'error') return;
    const last = this.#snapshot.messages[this.#snapshot.messages.length - 1];
    const calls = last?.role === 'assistant' ? last.parts.filter((part): part is ToolCallPart => part.type === 'tool-call') : [];
    if (calls.some(waitsOnUser)) {
      this.#dispatch({ type: 'settled' });
      this.#restTurn();
      return;
    }
    if (this.#freshAnswers === 0) {
      this.#dispatch({ type: 'settled' });
      this.#restTurn();
      this.#options.onFinish?.({ message: last?.role === 'assistant' ? last : undefined, messages: this.#snapshot.messages });
      return;
    }
    const budget = this.#options.maxSteps ?? 10;
    if (this.#steps >= budget) {
      this.#fail(new ChatwireError('step-budget', `Stopped after ${budget} automatic continuations in one turn (maxSteps).`));
      return;
    }
    this.#steps++;
    void this.#run(generation);
  }

  #resumeEntries(): ResumeEntry[] {
    const entries: ResumeEntry[] = [];
    for (const interrupt of this.#interrupts) {
      const found = interrupt.toolCallId ? findToolCall(this.#snapshot.messages, (call) => call.toolCallId === interrupt.toolCallId) : undefined;
      const call = found?.call;
      if (interrupt.reason === INTERRUPT_REASONS.toolApproval && call?.approval?.approved !== undefined) {
        entries.push({
          interruptId: interrupt.id,
          status: 'resolved',
          payload: { approved: call.approval.approved, ...(call.approval.reason ? { reason: call.approval.reason } : {}) },
          ...(call.approval.metadata ? { metadata: call.approval.metadata } : {}),
        });
      } else if (interrupt.reason === INTERRUPT_REASONS.clientTool && call?.result && call.state !== 'cancelled') {
        entries.push({
          interruptId: interrupt.id,
          status: 'resolved',
          payload: call.result.state === 'error' ? { error: call.result.error ?? call.result.content } : { output: call.result.output ?? null },
        });
      } else {
        entries.push({ interruptId: interrupt.id, status: 'cancelled' });
      }
    }
    return entries;
  }

  #wireTools(): WireTool[] {
    const tools = this.#options.tools;
    const managed = this.#options.manageDiscovery;
    const discovered = managed ? discoveredToolsInChat(this.#snapshot.messages) : [];
    const key = discovered.join('\u0000');
    const cached = this.#wireToolsCache;
    if (cached && cached.tools === tools && cached.managed === managed && cached.key === key) return cached.wire;
    const wire = managed ? managed.wireTools(tools ?? [], discovered) : (tools ?? []).map(toWireTool);
    this.#wireToolsCache = { tools, managed, key, wire };
    return wire;
  }

  // ---------------------------------------------------------------------------------------------
  // Browser tools

  #clientTool(name: string): ClientTool<string, unknown, unknown> | undefined {
    const tool = this.#options.tools?.find((candidate) => candidate.name === name);
    return tool?.kind === 'client' ? (tool as ClientTool<string, unknown, unknown>) : undefined;
  }

  async #onInputReady(toolCallId: string, again = false): Promise<void> {
    const found = findToolCall(this.#snapshot.messages, (call) => call.toolCallId === toolCallId);
    if (!found) return;
    const { call } = found;
    if (!again) {
      try {
        this.#options.onToolCall?.({ toolCall: call });
      } catch (error) {
        this.#warn(`onToolCall threw: ${describeError(error)}`);
      }
    }
    if (call.toolName === DISCOVERY_TOOL_NAME && this.#options.manageDiscovery) {
      this.#answer(toolCallId, this.#options.manageDiscovery.answer(call.input, this.#options.tools ?? []), 'client');
      return;
    }
    const tool = this.#clientTool(call.toolName);
    if (!tool) return; // a server tool, or one the app answers with addToolResult
    // A lazy tool runs only once a discovery of it is in the conversation; one loaded by the same
    // response may still arrive, so the decision waits for the end of the run.
    if (tool.lazy && !discoveredToolsInChat(this.#snapshot.messages).includes(tool.name)) {
      this.#lazyWaiting.add(toolCallId);
      return;
    }
    // Register before any await so the end of the run waits for this call.
    const generation = this.#generation;
    const controller = new AbortController();
    const promise = (async () => {
      const input = await validateToolInput(tool, call.input);
      if (generation !== this.#generation || controller.signal.aborted) return;
      if (!input.ok) {
        this.#answer(toolCallId, { type: 'fail', error: input.error }, 'client');
        return;
      }
      let needsApproval: boolean;
      try {
        needsApproval = await resolveNeedsApproval(tool, input.value);
      } catch (error) {
        needsApproval = true; // when the policy itself fails, ask rather than run
        this.#warn(`needsApproval of '${tool.name}' threw (${describeError(error)}); asking the user.`);
      }
      if (generation !== this.#generation || controller.signal.aborted) return;
      if (needsApproval) {
        this.#dispatch({
          type: 'toolCall',
          toolCallId,
          event: { type: 'approvalRequest', approvalId: createId('approval'), requestedBy: 'client' },
          now: Date.now(),
          owner: 'client',
        });
        return;
      }
      await this.#runTool(toolCallId, tool, input.value, controller);
    })();
    this.#track(toolCallId, promise, controller);
  }

  /** At the end of a run: lazy calls whose discovery arrived run now; the others get the self-correction error. */
  #settleLazyWaiting(): void {
    const waiting = [...this.#lazyWaiting];
    this.#lazyWaiting.clear();
    const discovered = discoveredToolsInChat(this.#snapshot.messages);
    for (const toolCallId of waiting) {
      const found = findToolCall(this.#snapshot.messages, (call) => call.toolCallId === toolCallId);
      if (!found || isTerminalToolCallState(found.call.state)) continue; // the server answered it
      if (discovered.includes(found.call.toolName)) void this.#onInputReady(toolCallId, true);
      else this.#answer(toolCallId, { type: 'fail', error: selfCorrectionError(found.call.toolName) }, 'client');
    }
  }

  #execute(toolCallId: string, tool: ClientTool<string, unknown, unknown>, input: unknown): void {
    const controller = new AbortController();
    this.#track(toolCallId, this.#runTool(toolCallId, tool, input, controller), controller);
  }

  #track(toolCallId: string, promise: Promise<void>, controller: AbortController): void {
    const generation = this.#generation;
    const tracked = promise.finally(() => {
      if (this.#running.get(toolCallId)?.promise !== tracked) return;
      this.#running.delete(toolCallId);
      this.#maybeContinue(generation);
    });
    this.#running.set(toolCallId, { promise: tracked, controller });
  }

  async #runTool(toolCallId: string, tool: ClientTool<string, unknown, unknown>, input: unknown, controller: AbortController): Promise<void> {
    this.#dispatch({ type: 'toolCall', toolCallId, event: { type: 'execute' }, now: Date.now(), owner: 'client' });
    const outcome = await executeTool(tool, input, { toolCallId, signal: controller.signal });
    if (controller.signal.aborted) return;
    this.#answer(
      toolCallId,
      outcome.ok
        ? { type: 'output', output: outcome.output, content: outcome.content }
        : { type: 'fail', error: outcome.error, content: outcome.content },
      'client',
    );
  }
}
