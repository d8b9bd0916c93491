import type { Context } from '@ag-ui/core';
import type { ActiveRun } from '../model/chatState.js';
import { nextStep, pendingInterrupts } from '../model/continuation.js';
import { ChatwireError, describeError } from '../base/errors.js';
import { createId } from '../base/ids.js';
import { isProductionBuild, type InspectionEvent } from '../inspection/inspection.js';
import type { MessagePart } from '../model/messages.js';
import { BrowserTools } from './browserTools.js';
import type { ChatStore } from './chatStore.js';
import type { ChatClient } from './chatClient.js';
import type { ChatClientOptions } from './chatClientOptions.js';
import type { SendMessageInput, SendOptions, SendResult } from './commandInputs.js';
import type { SendQueue } from './sendQueue.js';
import type { AppToolCallHost } from './appToolCall.js';
import { findToolCall } from '../reduce/chatReducer.js';
import { discoveredToolsInChat } from '../discovery/discoveredTools.js';
import { mayRunLazyCall } from '../discovery/mayRunLazyCall.js';
import { executeTool } from '../tools/toolExecution.js';
import { resolveNeedsApproval, validateToolInput } from '../tools/toolDefinition.js';
import { isTerminalToolCallState } from '../lifecycle/toolCallLifecycle.js';
import { Turn } from './turn.js';
import { WireToolList, readRun } from './runRequest.js';
import { startTurnRequest } from './turnRequest.js';

/** How long a stop keeps a chat's first request open for the token of its run (see `TurnRunner.stop`). */
const TOKEN_WAIT_MS = 10_000;

/**
 * Runs a chat's turns for its `ChatClient`: owns the current turn, starts its requests, reads their
 * runs, performs tool-call effects through the browser tools (their runtime a lazy chunk), and decides from the snapshot
 * what follows a run (`nextStep`): wait, continue within the step budget, or finish. The client's
 * commands check their arguments and hand the rest to it.
 */
export class TurnRunner {
  readonly tools: BrowserTools;
  readonly store: ChatStore;
  /** The frontend tools of the chat's requests (see `WireToolList`). */
  readonly wireTools = new WireToolList();
  readonly #client: Pick<ChatClient, 'id' | 'options'>;
  readonly #appContexts: Map<string, Context>;
  /** The current turn; a chat that has not sent yet, or was stopped, has a resting turn without options. */
  #turn: Turn<SendOptions>;
  /** The send queue (`queue: true`), loaded with the first queued message. */
  #queue: SendQueue | undefined;

  /**
   * @param client The client it works for (its id, and its options in effect, read at call time).
   * @param store The client's store.
   * @param appContexts The context entries MCP Apps keep, by app (sent after the client's `context`).
   */
  constructor(client: Pick<ChatClient, 'id' | 'options'>, store: ChatStore, appContexts: Map<string, Context>) {
    this.#client = client;
    this.store = store;
    this.#appContexts = appContexts;
    this.#turn = this.newTurn(undefined);
    this.tools = new BrowserTools({
      store,
      tools: () => this.options.tools ?? [],
      manageDiscovery: () => this.options.manageDiscovery,
      onToolCall: (toolCall) => this.options.onToolCall?.({ toolCall }),
      turn: () => this.#turn,
      settled: (turn) => this.continue(turn),
      warn: this.warn,
      helpers: { findToolCall, discoveredToolsInChat, mayRunLazyCall, executeTool, validateToolInput, resolveNeedsApproval },
    });
  }

  /** The options in effect. */
  get options(): ChatClientOptions {
    return this.#client.options;
  }

  /** The context entries MCP Apps keep. */
  get appContexts(): Iterable<Context> {
    return this.#appContexts.values();
  }

  /** The current turn. */
  get turn(): Turn<SendOptions> {
    return this.#turn;
  }

  /** The send queue, once a message was queued. */
  get queue(): SendQueue | undefined {
    return this.#queue;
  }

  /** The one answer to "is a response in progress": the current turn's (see `Turn.busy`). */
  busy(): boolean {
    return this.#turn.busy(this.store.getSnapshot().status);
  }

  /** Tells the chat's inspectors (devtools); nothing when none inspects. */
  readonly inspect = (event: InspectionEvent): void => {
    const { inspector } = this.store;
    if (inspector.active) inspector.emit(event);
  };

  /** Reports a development warning: to inspectors, and to `onWarning` (else `console.warn` outside production). */
  readonly warn = (message: string): void => {
    this.inspect({ type: 'warning', at: Date.now(), message });
    const { onWarning } = this.options;
    if (onWarning) onWarning(message);
    else if (!isProductionBuild()) console.warn(`[chatwire] ${message}`);
  };

  /** What `callAppTool` (loaded with its first call) needs of the chat's turns. */
  appToolHost(): AppToolCallHost {
    return {
      busy: () => this.busy(),
      start: (options) => this.start(this.newTurn(options)),
      step: nextStep,
      find: findToolCall,
      settled: isTerminalToolCallState,
      id: createId,
    };
  }

  /** A new turn with the send's `options` (not started). */
  newTurn(options: SendOptions | undefined): Turn<SendOptions> {
    return new Turn(options, () => this.tools.busy);
  }

  /** Queues a message (loading the queue with the first one); resolves as its `sendMessage` does. */
  enqueue(input: SendMessageInput, options: SendOptions | undefined): Promise<SendResult> {
    return import('./sendQueue.js').then((module) =>
      (this.#queue ??= new module.SendQueue(
        this.store,
        () => this.busy(),
        (...args) => this.send(...args),
      )).add(input, options, createId('msg')),
    );
  }

  /** Reads the files (when there are some), appends the user message `id` and starts its turn. */
  async send(input: SendMessageInput, options: SendOptions | undefined, id: string): Promise<SendResult> {
    const { text = '', files, metadata, messageId } = input;
    const parts: MessagePart[] = text ? [{ type: 'text', text, state: 'done' }] : [];
    if (files?.length) {
      // The chat is busy while the files are read (the turn prepares them), and `stop()` aborts the reading.
      const turn = this.#turn;
      const signal = turn.prepare();
      const read = await import('./attachments.js').then(
        (module) =>
          module.prepareAttachments(turn, signal, files, this.options.attachments, () => (this.busy() ? this.busyError() : undefined)),
        // The chunk did not load: nothing was read, so nothing is sent.
        (error: unknown) => (turn.prepared(), new ChatwireError('network', describeError(error), { cause: error })),
      );
      if (read instanceof ChatwireError) return this.refuse(read);
      parts.push(...read);
    }
    const now = Date.now();
    this.inspect({ type: 'turn', at: now, id });
    this.store.dispatch({
      type: 'userMessage',
      message: { id, role: 'user', parts, createdAt: now, ...(metadata ? { metadata } : {}) },
      ...(messageId === undefined ? {} : { replaces: messageId }),
    });
    return this.start(this.newTurn(options));
  }

  /** The refusal of a send while a response is in progress. */
  busyError(): ChatwireError {
    return new ChatwireError('busy', 'A response is still in progress: wait for it to finish or call stop() before sending again.');
  }

  /** A command that cannot run changes nothing, says why in development, and resolves (never rejects). */
  refuse(error: ChatwireError): Promise<SendResult> {
    this.warn(`${error.message} (${error.code}; nothing was sent)`);
    return Promise.resolve({ sent: false, error });
  }

  /** Answers (or declines) a pending interrupt, then decides what follows. Throws `unknown-interrupt` when none waits on `id`. */
  answerInterrupt(id: string, status: 'resolved' | 'cancelled', payload: unknown): void {
    const { store } = this;
    if (!pendingInterrupts(store.getSnapshot().messages).some((part) => part.id === id)) {
      throw new ChatwireError('unknown-interrupt', `There is no pending interrupt '${id}'.`);
    }
    store.dispatch({ type: 'interruptResponse', id, status, payload, now: Date.now() });
    this.continue(this.#turn);
  }

  /** Starts `turn` (replacing the current one, if it is not that one already): a new run, or (`resuming`) the active run read again. */
  start(turn: Turn<SendOptions>, resuming?: ActiveRun): Promise<SendResult> {
    // A run still active here is one a failed turn kept (to read it again later; a run's end clears
    // it): the new turn replaces it, so it stops first.
    if (!resuming) this.stopRemote();
    if (this.#turn !== turn) {
      this.#turn.end();
      this.#turn = turn;
    }
    void this.#run(turn, resuming);
    return turn.rested;
  }

  /**
   * Stops the current response; `remote`: a resumable run is stopped on the server too (else the
   * reader only detaches). With no token yet (a chat's first run, before its response), the request
   * stays open until its RUN_STARTED brings one (at most `TOKEN_WAIT_MS`), applying nothing.
   */
  stop(remote: boolean): void {
    // The turn's run in flight, named before the turn ends; else a run kept after a failed turn: it may still be going on the server.
    const inFlight = this.#turn.run;
    if (remote) {
      this.stopRemote(inFlight);
      if (!this.store.getSnapshot().resumeToken && this.options.connection.stop) this.#turn.keepForToken(TOKEN_WAIT_MS);
    }
    const { phase } = this.#turn;
    if (!this.busy()) return;
    this.#turn.end();
    // Files being read: nothing was sent, so there is nothing to close in the chat.
    if (phase !== 'preparing') {
      this.tools.abortAll();
      // While the ended turn is still the chat's: what the stop settles starts no continuation.
      this.store.dispatch({ type: 'stopped', now: Date.now() });
    }
    this.#turn = this.newTurn(undefined);
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
  stopRemote(inFlight?: string, resumeToken = this.store.getSnapshot().resumeToken): void {
    const runId = inFlight ?? this.store.getSnapshot().activeRun?.runId;
    if (runId !== undefined && resumeToken) {
      this.options.connection
        .stop?.({ threadId: this.#client.id, runId, token: resumeToken })
        .catch((error: unknown) => this.warn(`Could not stop the run on the server: ${describeError(error)}`));
    }
  }

  /**
   * Decides what follows once nothing streams, from the snapshot (see `nextStep`): wait for the
   * user, continue automatically (within the step budget), or end the turn.
   */
  continue(of: Turn<unknown>): void {
    const turn = this.#turn;
    // What the browser still decides or runs shows in the snapshot (`nextStep` says `running`); effects
    // that wait for the tool runtime's chunk do not yet, so the turn waits for them (the chunk's arrival decides again).
    if (of !== turn || !turn.current || turn.streaming || this.tools.waiting) return;
    const { store } = this;
    const snapshot = store.getSnapshot();
    if (snapshot.status === 'error') return;
    const step = nextStep(snapshot);
    if (step === 'running') return;
    if (step === 'waiting' || step === 'finish') {
      store.dispatch({ type: 'settled' });
      turn.rest();
      if (step === 'finish') {
        const last = snapshot.messages[snapshot.messages.length - 1];
        this.options.onFinish?.({ message: last?.role === 'assistant' ? last : undefined, messages: store.getSnapshot().messages });
        this.#queue?.drain();
      }
      return;
    }
    const budget = this.options.maxSteps ?? 10;
    if (turn.steps >= budget) {
      this.#fail(turn, new ChatwireError('step-budget', `Stopped after ${budget} automatic continuations in one turn (maxSteps).`));
      return;
    }
    turn.steps++;
    void this.#run(turn);
  }

  async #run(turn: Turn<SendOptions>, resuming?: ActiveRun): Promise<void> {
    const { store } = this;
    const runId = resuming?.runId ?? createId('run');
    const controller = turn.request(runId);
    const { options } = this;
    const send = turn.options;
    const input = startTurnRequest(this, runId, send, resuming !== undefined);
    let ending: Awaited<ReturnType<typeof readRun>>;
    try {
      ending = await readRun({
        store,
        client: options,
        input,
        signal: controller.signal,
        send,
        resuming: resuming !== undefined,
        warn: this.warn,
        isCurrent: () => turn.current,
        onRunStarted: () => turn.runStarted(),
        // A request a stop kept open (see `stop`): its run is stopped under the token its RUN_STARTED brought.
        onStale: (token, stream) => {
          if (!turn.keptForToken(controller)) return false;
          if (token) this.stopRemote(runId, token);
          controller.abort();
          void stream.return?.(undefined)?.catch(() => {});
          return true;
        },
        onCustomEvent: (event) => {
          try {
            this.options.onCustomEvent?.(event);
          } catch (error) {
            this.warn(`onCustomEvent threw: ${describeError(error)}`);
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
      this.tools.abortAll();
      const error = store.getSnapshot().error;
      if (error) this.options.onError?.(error);
      turn.rest();
      return;
    }
    // Browser tools that started while the stream was read decide again as they settle.
    this.continue(turn);
  }

  #fail(turn: Turn<SendOptions>, error: ChatwireError): void {
    this.tools.abortAll();
    this.store.dispatch({ type: 'failed', error, now: Date.now() });
    this.inspect({ type: 'error', at: Date.now(), error });
    this.options.onError?.(error);
    turn.rest();
  }
}
