import type { findToolCall, ToolCallChange } from '../reduce/chatReducer.js';
import type { ChatStore } from './chatStore.js';
import type { Turn } from './turn.js';
import type { ClientDiscovery } from '../discovery/clientManaged.js';
import type { discoveredToolsInChat } from '../discovery/discoveredTools.js';
import type { mayRunLazyCall } from '../discovery/mayRunLazyCall.js';
import { describeError } from '../base/errors.js';
import { createId } from '../base/ids.js';
import { DISCOVERY_TOOL_NAME } from '../protocol/chatwireProtocol.js';
import type { executeTool } from '../tools/toolExecution.js';
import type { ToolCallEvent, ToolCallPart } from '../lifecycle/toolCallLifecycle.js';
import type { AnyTool, ClientTool, resolveNeedsApproval, validateToolInput } from '../tools/toolDefinition.js';

/**
 * The tool helpers the runtime uses, handed in by its host rather than imported: the runtime is a
 * lazy chunk, and esbuild places code that a lazy chunk shares with a package's public entries (these
 * are on `@chatwire/core/shared`, which `@chatwire/react` and `@chatwire/ui` import) in a chunk every
 * such entry loads at once, even an app that never runs a tool. Passed in, they are code only a
 * `ChatClient` keeps.
 */
export interface BrowserToolHelpers {
  readonly findToolCall: typeof findToolCall;
  readonly discoveredToolsInChat: typeof discoveredToolsInChat;
  readonly mayRunLazyCall: typeof mayRunLazyCall;
  readonly executeTool: typeof executeTool;
  readonly validateToolInput: typeof validateToolInput;
  readonly resolveNeedsApproval: typeof resolveNeedsApproval;
}

/** What the runtime needs from the client it works for. */
export interface BrowserToolHost {
  readonly store: ChatStore;
  /** The tools the browser knows, read at the moment they are needed. */
  tools(): readonly AnyTool[];
  /** Client-managed discovery, when on. */
  manageDiscovery(): ClientDiscovery | undefined;
  /** Calls the app's `onToolCall`. */
  onToolCall(call: ToolCallPart): void;
  /** The chat's current turn; work started for a turn that is no longer current is dropped. */
  turn(): Turn;
  /** A call settled, a server's approval was answered, or an execution ended during `turn`: the client decides what follows. */
  settled(turn: Turn): void;
  warn(message: string): void;
  /** The tool helpers (see `BrowserToolHelpers`). */
  readonly helpers: BrowserToolHelpers;
}

/**
 * Performs the effects of tool-call transitions for the browser: the client's only decisions about
 * tool calls. It runs browser tools (concurrently; the stream never waits), asks for approval when a
 * tool needs it, answers client-managed discovery calls, holds lazy calls until their discovery, and
 * feeds every outcome back to the store as a tool-call event.
 */
export class BrowserToolRuntime {
  readonly #host: BrowserToolHost;
  /** Executions in flight, by tool call id. */
  readonly #running = new Map<string, { readonly promise: Promise<void>; readonly controller: AbortController }>();

  constructor(host: BrowserToolHost) {
    this.#host = host;
  }

  /**
   * Whether a browser tool is executing or being decided (the snapshot shows both: `executing`,
   * `waitingFor: 'decision'`); what `stop()` aborts.
   */
  get busy(): boolean {
    return this.#running.size > 0;
  }

  /** Performs every effect of one dispatch's changes. */
  perform(changes: readonly ToolCallChange[]): void {
    let settled = false;
    for (const change of changes) {
      for (const effect of change.effects) {
        switch (effect.type) {
          case 'inputReady':
            // `resume` re-decides a held call: the app was already told about it.
            this.#onInputReady(change.toolCallId, change.event !== 'resume');
            break;
          case 'approvalAnswered':
            // Ours is acted on here; a server's travels in the next request's resume entries, so the
            // client decides whether that request is due.
            if (effect.requestedBy === 'client') this.#onApprovalAnswered(change.toolCallId, effect.approved);
            else settled = true;
            break;
          case 'settled':
            settled = true;
            break;
        }
      }
    }
    if (settled) this.#host.settled(this.#host.turn());
  }

  /**
   * Picks up the current turn's browser calls that never ran (a client rebuilt from saved messages):
   * each waiting call whose tool this browser implements is decided again as if its input had just
   * completed; a call saved while it was executing fails (its outcome is unknown, and running it
   * again could repeat a side effect). Returns how many calls it picked up.
   */
  runPending(calls: readonly ToolCallPart[]): number {
    let count = 0;
    for (const call of calls) {
      if (call.owner !== 'client' || this.#running.has(call.toolCallId)) continue;
      if (call.state === 'executing') {
        this.#answer(call.toolCallId, {
          type: 'fail',
          error: `The page was reloaded while '${call.toolName}' ran; its result is unknown.`,
        });
        count++;
      } else if (call.state === 'input-complete' && this.#clientTool(call.toolName)) {
        this.#onInputReady(call.toolCallId, false);
        count++;
      }
    }
    return count;
  }

  /** Aborts every execution in flight. */
  abortAll(): void {
    for (const { controller } of this.#running.values()) controller.abort();
    this.#running.clear();
  }

  /** Applies an answer this client produced (the next request carries it). */
  #answer(toolCallId: string, event: ToolCallEvent): void {
    this.#host.store.dispatch({ type: 'toolCall', toolCallId, event, now: Date.now(), owner: 'client', answer: true });
  }

  #clientTool(name: string): ClientTool<string, unknown, unknown> | undefined {
    const tool = this.#host.tools().find((candidate) => candidate.name === name);
    return tool?.kind === 'client' ? (tool as ClientTool<string, unknown, unknown>) : undefined;
  }

  #onInputReady(toolCallId: string, first: boolean): void {
    const call = this.#host.helpers.findToolCall(this.#host.store.getSnapshot().messages, (part) => part.toolCallId === toolCallId)?.call;
    if (!call) return;
    if (first) {
      try {
        this.#host.onToolCall(call);
      } catch (error) {
        this.#host.warn(`onToolCall threw: ${describeError(error)}`);
      }
    }
    const managed = this.#host.manageDiscovery();
    if (call.toolName === DISCOVERY_TOOL_NAME && managed) {
      this.#answerDiscovery(managed, toolCallId, call.input);
      return;
    }
    const tool = this.#clientTool(call.toolName);
    if (!tool) return; // a server tool, or one the app answers with addToolResult
    // A lazy tool runs only once a discovery of it is in the conversation. One loaded later in the
    // same response may still arrive, so while the stream is open the call is held; the reducer
    // decides held calls when the run finishes.
    if (!this.#host.helpers.mayRunLazyCall(tool, () => this.#host.helpers.discoveredToolsInChat(this.#host.store.getSnapshot().messages))) {
      if (this.#host.turn().streaming) {
        this.#host.store.dispatch({
          type: 'toolCall',
          toolCallId,
          event: { type: 'defer', waitingFor: 'discovery' },
          now: Date.now(),
          owner: 'client',
        });
      } else {
        // Outside a stream (a call restored from saved messages, run by runPendingTools): rare, so
        // the answer's module loads on demand, as the stream's reducer that holds such calls does.
        const turn = this.#host.turn();
        void import('../discovery/undiscoveredCall.js').then(({ discoveryOffered, undiscoveredBrowserCall }) => {
          if (!turn.current) return;
          this.#answer(toolCallId, {
            type: 'fail',
            ...undiscoveredBrowserCall(tool.name, discoveryOffered(this.#host.store.getSnapshot().turns)),
          });
        });
      }
      return;
    }
    // Registered before any await, so the end of the run waits for this call; the snapshot says it is being decided.
    this.#deciding(toolCallId);
    const turn = this.#host.turn();
    const controller = new AbortController();
    const promise = (async () => {
      const input = await this.#host.helpers.validateToolInput(tool, call.input);
      if (!turn.current || controller.signal.aborted) return;
      if (!input.ok) {
        this.#answer(toolCallId, { type: 'fail', error: input.error });
        return;
      }
      // When the policy itself fails, ask rather than run.
      const needsApproval = await this.#host.helpers.resolveNeedsApproval(tool, input.value, (error) =>
        this.#host.warn(`needsApproval of '${tool.name}' threw (${describeError(error)}); asking the user.`),
      );
      if (!turn.current || controller.signal.aborted) return;
      if (needsApproval) {
        const event: ToolCallEvent = { type: 'approvalRequest', approvalId: createId('approval'), requestedBy: 'client' };
        this.#host.store.dispatch({ type: 'toolCall', toolCallId, event, now: Date.now(), owner: 'client' });
        return;
      }
      // The raw input again, not `input.value`: executeTool applies the schema once more to the same
      // input, so a schema that transforms its input never receives its own output.
      await this.#runTool(toolCallId, tool, call.input, controller);
    })();
    this.#track(toolCallId, promise, controller);
  }

  /** Client-managed discovery: the catalog is this browser's tools; the answer is the shared one. */
  #answerDiscovery(managed: ClientDiscovery, toolCallId: string, input: unknown): void {
    const already = new Set(this.#host.helpers.discoveredToolsInChat(this.#host.store.getSnapshot().messages));
    this.#deciding(toolCallId);
    const controller = new AbortController();
    const promise = managed.answer(input, this.#host.tools(), already).then((answer) => {
      if (controller.signal.aborted) return;
      this.#answer(
        toolCallId,
        answer.ok
          ? { type: 'output', output: answer.result, content: answer.content }
          : { type: 'fail', error: answer.error ?? 'Discovery failed.', content: answer.content },
      );
    });
    this.#track(toolCallId, promise, controller);
  }

  /** The call is being decided here (`waitingFor: 'decision'`) until its approval request, execution or answer. */
  #deciding(toolCallId: string): void {
    this.#host.store.dispatch({
      type: 'toolCall',
      toolCallId,
      event: { type: 'defer', waitingFor: 'decision' },
      now: Date.now(),
      owner: 'client',
    });
  }

  #onApprovalAnswered(toolCallId: string, approved: boolean): void {
    if (!approved) {
      this.#answer(toolCallId, { type: 'cancel', reason: 'denied' });
      return;
    }
    const call = this.#host.helpers.findToolCall(this.#host.store.getSnapshot().messages, (part) => part.toolCallId === toolCallId)?.call;
    const tool = call && this.#clientTool(call.toolName);
    if (!call || !tool) {
      this.#answer(toolCallId, { type: 'fail', error: `No browser implementation of '${call?.toolName ?? toolCallId}' is registered.` });
      return;
    }
    const controller = new AbortController();
    this.#track(toolCallId, this.#runTool(toolCallId, tool, call.input, controller), controller);
  }

  #track(toolCallId: string, promise: Promise<void>, controller: AbortController): void {
    const turn = this.#host.turn();
    const tracked = promise.finally(() => {
      if (this.#running.get(toolCallId)?.promise !== tracked) return;
      this.#running.delete(toolCallId);
      this.#host.settled(turn);
    });
    this.#running.set(toolCallId, { promise: tracked, controller });
  }

  /** Runs a call on its raw input (executeTool validates it). */
  async #runTool(
    toolCallId: string,
    tool: ClientTool<string, unknown, unknown>,
    input: unknown,
    controller: AbortController,
  ): Promise<void> {
    this.#host.store.dispatch({ type: 'toolCall', toolCallId, event: { type: 'execute' }, now: Date.now(), owner: 'client' });
    const outcome = await this.#host.helpers.executeTool(tool, input, { toolCallId, signal: controller.signal });
    if (controller.signal.aborted) return;
    this.#answer(
      toolCallId,
      outcome.ok
        ? { type: 'output', output: outcome.output, content: outcome.content }
        : { type: 'fail', error: outcome.error, content: outcome.content },
    );
  }
}
