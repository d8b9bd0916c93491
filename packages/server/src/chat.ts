import { setMaxListeners } from 'node:events';
import {
  EventType,
  aggregateTokenUsage,
  type AssistantMessage,
  type Event,
  type Interrupt,
  type Message,
  type ResumeEntry,
  type TokenUsage,
  type Tool as WireTool,
  type ToolCall,
  type ToolMessage,
} from '@ag-ui/core';
import {
  CHATWIRE_EVENTS,
  DISCOVERY_TOOL_NAME,
  INTERRUPT_REASONS,
  createId,
  readWireToolMetadata,
  selfCorrectionError,
  unavailableError,
  describeError,
  executeTool,
  parseJsonStrict,
  resolveNeedsApproval,
  validateToolInput,
  type AnyTool,
  type ResultMetadata,
} from '@chatwire/core';
import { ChatRequestError, insertAfterCall, reviewHistory, withEveryCallAnswered, type HistoryReview } from './history.js';
import { isExposed, reportError, safeModelMessage, type ErrorReporter } from './errors/errorReport.js';
import { redactSecrets } from './errors/redactSecrets.js';
import type { ChatStore } from './store/chatStore.js';
import { createMemoryStore } from './store/memoryStore.js';
import { LazyDiscovery, type DiscoveryOptions } from './discovery/lazyDiscovery.js';
import type { ChatModel, ModelChunk, ModelTool } from './model.js';
import { CallSigner } from './signing.js';
import { canonicalArguments } from './binding/canonicalArguments.js';
import { ProviderError } from './adapters/providerErrors.js';
import { toolTokensFor } from './tokens.js';
import { ToolRegistry, type RegisteredTool } from './toolRegistry.js';

/** Options of {@link chat}. */
export interface ChatOptions {
  /** The model to call: `createScriptedModel()`, `openaiCompatible(...)`, `anthropic(...)`. */
  readonly model: ChatModel;
  /** The conversation so far, as AG-UI messages (a run input's `messages`). */
  readonly messages: readonly Message[];
  /** Server tools (`.server(impl)`) and browser tools the server knows (bare or `.client` definitions). */
  readonly tools?: readonly AnyTool[];
  /** Tools the browser announced in the run input (`RunAgentInput.tools`); they run in the browser. */
  readonly frontendTools?: readonly WireTool[];
  /** The system prompt. Defaults to none. */
  readonly system?: string;
  /** Model calls allowed in one run. Defaults to 10. */
  readonly maxIterations?: number;
  /** AG-UI thread id. Defaults to a random id. */
  readonly threadId?: string;
  /** AG-UI run id. Defaults to a random id. */
  readonly runId?: string;
  /** Answers to the interrupts that ended the previous run. */
  readonly resume?: readonly ResumeEntry[];
  /** Abort to stop the model and the tools (the SSE helper wires this to the client's disconnect). */
  readonly signal?: AbortSignal;
  /**
   * Key that binds approvals and results to this server. Defaults to `CHATWIRE_SECRET`; without
   * either, production refuses to start and development uses a random per-process key (with a warning).
   */
  readonly secret?: string;
  /**
   * Where used approvals are remembered against replay. Defaults to one in-memory store per process,
   * which refuses approvals issued before a restart or by another instance; use `createRedisStore`
   * to share it between instances and restarts.
   */
  readonly store?: ChatStore;
  /** How long an approval can be answered, in milliseconds. Defaults to 3,600,000 (one hour). */
  readonly approvalTtlMs?: number;
  /**
   * Receives the details of failures the client only sees as a safe message (tool exceptions,
   * provider errors); credentials in URLs are redacted. Defaults to one `console.error` line.
   */
  readonly onError?: ErrorReporter;
  /** Lazy discovery of tools marked `lazy` (by name by default; see `DiscoveryOptions`). */
  readonly discovery?: DiscoveryOptions;
}

/** The tools of one run and the discovery that withholds the lazy ones. */
function toolsOf(options: ChatOptions): { registry: ToolRegistry; discovery: LazyDiscovery; isServerSide: (name: string) => boolean } {
  const serverTools = options.tools ?? [];
  const frontendTools = options.frontendTools ?? [];
  const hasLazy = serverTools.some((tool) => tool.lazy) || frontendTools.some((tool) => readWireToolMetadata(tool).lazy);
  // With lazy tools the server answers discovery itself; a browser cannot substitute its own.
  const registry = new ToolRegistry(serverTools, hasLazy ? frontendTools.filter((tool) => tool.name !== DISCOVERY_TOOL_NAME) : frontendTools);
  const discovery = new LazyDiscovery(registry, options.discovery ?? {}, toolTokensFor(options.model.toolTokens));
  const browserDiscovery = registry.get(DISCOVERY_TOOL_NAME)?.runsOn === 'client';
  return { registry, discovery, isServerSide: (name) => name === DISCOVERY_TOOL_NAME && !browserDiscovery };
}

let defaultStore: ChatStore | undefined;
/** The process's in-memory store, for chats configured without one. */
const storeOf = (options: ChatOptions): ChatStore => options.store ?? (defaultStore ??= createMemoryStore());

const DEFAULT_APPROVAL_TTL_MS = 60 * 60_000;

/**
 * Checks a run's history and resume entries without running anything and without using up any
 * approval. Rejects with {@link ChatRequestError} with a clear message; `createChatHandler` turns
 * that into HTTP 400.
 */
export async function validateChatRequest(options: ChatOptions): Promise<void> {
  await reviewChatRequest(options, false);
}

/**
 * Reviews a run's history and resume entries; with `consume`, claims the approvals in the store so
 * they cannot be used again. `createChatHandler` calls it before answering, so a refused request is
 * an HTTP error, then hands the review to {@link runChat}.
 */
export async function reviewChatRequest(options: ChatOptions, consume = true, signer = new CallSigner(options.secret)): Promise<HistoryReview> {
  const { registry, isServerSide } = toolsOf(options);
  return reviewHistory({
    messages: options.messages,
    resume: options.resume ?? [],
    registry,
    signer,
    store: storeOf(options),
    threadId: options.threadId ?? '',
    isServerSide,
    consume,
  });
}

/**
 * Runs the agent loop for one AG-UI run and yields its events: the model streams text and tool
 * calls, server tools execute (concurrently), and the run ends when the model answers without
 * tools, or with an interrupt when calls wait for an approval or for the browser.
 *
 * @example
 * ```ts
 * const events = chat({ model: createScriptedModel(), messages: input.messages, tools: [getWeather] });
 * return toServerSentEventsResponse(events);
 * ```
 */
export function chat(options: ChatOptions): AsyncGenerator<Event, void, undefined> {
  return runChat(options, undefined);
}

/**
 * The agent loop of {@link chat}; `reviewed` is the history review `createChatHandler` already made
 * (and whose approvals it claimed) before answering, `signer` the one it resolved at startup.
 */
export async function* runChat(
  options: ChatOptions,
  reviewed: HistoryReview | undefined,
  signer = new CallSigner(options.secret),
): AsyncGenerator<Event, void, undefined> {
  const threadId = options.threadId ?? createId('thread');
  const runId = options.runId ?? createId('run');
  // The run's own signal: aborted when the caller's is, and when the run ends, so no tool outlives it.
  const runAbort = new AbortController();
  // Every tool call of the run listens on it until the run ends (see executeTool): no listener cap.
  setMaxListeners(0, runAbort.signal);
  const outer = options.signal;
  const forwardAbort = () => runAbort.abort(outer?.reason);
  if (outer?.aborted) forwardAbort();
  else outer?.addEventListener('abort', forwardAbort, { once: true });
  const signal = runAbort.signal;
  const usage: TokenUsage[] = [];
  yield { type: EventType.RUN_STARTED, threadId, runId };

  try {
    const { registry, discovery } = toolsOf(options);
    const review = reviewed ?? (await reviewChatRequest({ ...options, threadId }, true, signer));
    const history = review.messages;
    const context: LoopContext = {
      threadId,
      runId,
      signer,
      signal,
      registry,
      discovery,
      history,
      store: storeOf(options),
      approvalTtlMs: options.approvalTtlMs ?? DEFAULT_APPROVAL_TTL_MS,
      onError: options.onError,
    };

    // What the user decided on the previous run's approvals happens first.
    for (const { call, reason } of review.denied) {
      const error = `The user declined to run '${call.function.name}'${reason ? `: ${reason}` : '.'}`;
      yield resultEvent(context, call, JSON.stringify({ error }), { outcome: 'cancelled', reason: 'denied', error });
    }
    yield* executeServerCalls(context, review.approved.map(({ call }) => call));

    const maxIterations = options.maxIterations ?? 10;
    for (let iteration = 0; iteration < maxIterations; iteration++) {
      // Stopped while tools ran: end as a stopped run (RUN_ERROR 'aborted'), not silently.
      signal.throwIfAborted();
      const stepName = `model-call-${iteration + 1}`;
      yield { type: EventType.STEP_STARTED, stepName };
      const plan = await discovery.plan(history);
      const sentMessages = withEveryCallAnswered(history);
      const step = yield* streamModelCall(options, context, plan.tools, sentMessages);
      if (step.usage) usage.push(step.usage);
      const accounting = discovery.usage({ runId, step: iteration + 1, plan, messages: sentMessages, providerUsage: providerUsageOf(step.usage) });
      yield { type: EventType.CUSTOM, name: CHATWIRE_EVENTS.modelCallUsage, value: accounting };
      yield { type: EventType.STEP_FINISHED, stepName };
      if (step.calls.length === 0) break;

      const { serverCalls, interrupts } = yield* triageCalls(context, step.calls);
      yield* executeServerCalls(context, serverCalls);
      if (interrupts.length > 0) {
        yield finished(threadId, runId, usage, { type: 'interrupt', interrupts });
        return;
      }
    }
    yield finished(threadId, runId, usage, undefined);
  } catch (error) {
    if (signal.aborted) {
      // Stopped by the user (or the client went away): say so, for whoever still reads the events.
      yield { type: EventType.RUN_ERROR, message: 'The run was stopped before it finished.', code: 'aborted', ...(usage.length ? { usage: aggregateTokenUsage(usage) } : {}) };
      return;
    }
    // The client reads a safe message; the details go to the server's onError.
    let message: string;
    if (error instanceof ChatRequestError) message = error.message;
    else {
      const ref = reportError(options.onError, { kind: error instanceof ProviderError ? 'model' : 'run', error, threadId, runId });
      message = safeModelMessage(error, ref);
    }
    const code = error instanceof ChatRequestError ? error.code : 'agent-error';
    yield { type: EventType.RUN_ERROR, message, code, ...(usage.length ? { usage: aggregateTokenUsage(usage) } : {}) };
  } finally {
    outer?.removeEventListener('abort', forwardAbort);
    runAbort.abort(new Error('The run ended.'));
  }
}

interface LoopContext {
  readonly threadId: string;
  readonly runId: string;
  readonly signer: CallSigner;
  readonly store: ChatStore;
  readonly approvalTtlMs: number;
  readonly onError: ErrorReporter | undefined;
  readonly signal: AbortSignal;
  readonly registry: ToolRegistry;
  readonly discovery: LazyDiscovery;
  /** The working history; the loop appends to it. */
  readonly history: Message[];
}

function finished(threadId: string, runId: string, usage: TokenUsage[], outcome: { type: 'interrupt'; interrupts: Interrupt[] } | undefined): Event {
  return {
    type: EventType.RUN_FINISHED,
    threadId,
    runId,
    ...(outcome ? { outcome } : {}),
    ...(usage.length ? { usage: aggregateTokenUsage(usage) } : {}),
  };
}

interface StepResult {
  readonly calls: ToolCall[];
  readonly usage: TokenUsage | undefined;
}

/** One model call, streamed out as AG-UI events; appends the assistant message to the history. */
function providerUsageOf(usage: TokenUsage | undefined) {
  if (!usage) return undefined;
  const { inputTokens, outputTokens, totalTokens, cachedInputTokens } = usage;
  return {
    ...(inputTokens === undefined ? {} : { inputTokens }),
    ...(outputTokens === undefined ? {} : { outputTokens }),
    ...(totalTokens === undefined ? {} : { totalTokens }),
    ...(cachedInputTokens === undefined ? {} : { cachedInputTokens }),
  };
}

async function* streamModelCall(
  options: ChatOptions,
  context: LoopContext,
  tools: ModelTool[],
  messages: Message[],
): AsyncGenerator<Event, StepResult, undefined> {
  const messageId = createId('msg');
  const calls = new Map<string, ToolCall>();
  const open = new Set<string>();
  let text = '';
  let textOpen = false;
  let usage: TokenUsage | undefined;
  const closeText = function* (): Generator<Event> {
    if (textOpen) yield { type: EventType.TEXT_MESSAGE_END, messageId };
    textOpen = false;
  };

  const stream = options.model.stream({
    system: options.system,
    messages,
    tools,
    signal: context.signal,
  });
  try {
    for await (const chunk of stream) {
      // A stopped run ends here: the abort propagates, and chat() ends without RUN_FINISHED.
      context.signal.throwIfAborted();
      yield* streamChunk(chunk);
    }
  } catch (error) {
    // The model failed mid-response: close what it opened, so RUN_ERROR follows a well-formed stream.
    if (!context.signal.aborted) {
      yield* closeText();
      for (const id of open) yield { type: EventType.TOOL_CALL_END, toolCallId: id };
    }
    throw error;
  }
  function* streamChunk(chunk: ModelChunk): Generator<Event> {
    switch (chunk.type) {
      case 'text-delta':
        if (!chunk.delta) break;
        if (!textOpen) {
          yield { type: EventType.TEXT_MESSAGE_START, messageId, role: 'assistant' };
          textOpen = true;
        }
        text += chunk.delta;
        yield { type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta: chunk.delta };
        break;
      case 'tool-call-start':
        yield* closeText();
        calls.set(chunk.id, { id: chunk.id, type: 'function', function: { name: chunk.name, arguments: '' } });
        open.add(chunk.id);
        yield { type: EventType.TOOL_CALL_START, toolCallId: chunk.id, toolCallName: chunk.name, parentMessageId: messageId };
        break;
      case 'tool-call-delta': {
        const call = calls.get(chunk.id);
        if (!call || !chunk.delta) break;
        call.function.arguments += chunk.delta;
        yield { type: EventType.TOOL_CALL_ARGS, toolCallId: chunk.id, delta: chunk.delta };
        break;
      }
      case 'tool-call-end':
        if (open.delete(chunk.id)) yield { type: EventType.TOOL_CALL_END, toolCallId: chunk.id };
        break;
      case 'finish':
        usage = chunk.usage;
        break;
    }
  }
  yield* closeText();
  for (const id of open) yield { type: EventType.TOOL_CALL_END, toolCallId: id };

  const assistant: AssistantMessage = {
    id: messageId,
    role: 'assistant',
    ...(text ? { content: text } : {}),
    ...(calls.size ? { toolCalls: [...calls.values()] } : {}),
  };
  if (text || calls.size) context.history.push(assistant);
  return { calls: [...calls.values()], usage };
}

/**
 * Sorts the calls of one model response: errors are answered at once, server calls run (or wait
 * for approval), browser calls are handed off. Returns what to execute and what to interrupt for.
 */
async function* triageCalls(
  context: LoopContext,
  calls: readonly ToolCall[],
): AsyncGenerator<Event, { serverCalls: ToolCall[]; interrupts: Interrupt[] }, undefined> {
  const serverCalls: ToolCall[] = [];
  const interrupts: Interrupt[] = [];
  // Discovery first: its results join the history, so a tool loaded by this same response may be called by it too.
  for (const call of calls) {
    if (call.function.name !== DISCOVERY_TOOL_NAME || context.registry.get(DISCOVERY_TOOL_NAME)?.runsOn === 'client') continue;
    const answer = await context.discovery.answer(call, context.history);
    yield answer.ok ? resultEvent(context, call, answer.content, {}) : errorResult(context, call, answer.error ?? 'discovery failed');
  }
  for (const call of calls) {
    if (call.function.name === DISCOVERY_TOOL_NAME && context.registry.get(DISCOVERY_TOOL_NAME)?.runsOn !== 'client') continue;
    const tool = context.registry.get(call.function.name);
    if (!tool) {
      const available = context.registry.eager().map((t) => t.name).join(', ') || 'none';
      const more = context.discovery.deferring ? ` More tools can be loaded with ${DISCOVERY_TOOL_NAME}.` : '';
      yield errorResult(context, call, `Unknown tool '${call.function.name}'. Available tools: ${available}.${more}`);
      continue;
    }
    if (tool.lazy && context.discovery.deferring && (await context.discovery.isRefused(tool.name))) {
      // A final answer: discovering it cannot help, so no self-correction loop.
      yield errorResult(context, call, unavailableError(tool.name));
      continue;
    }
    if (tool.lazy && !(await context.discovery.isDiscovered(tool.name, context.history))) {
      yield errorResult(context, call, selfCorrectionError(tool.name, context.discovery.mode));
      continue;
    }
    if (tool.lazy && context.discovery.deferring && !(await context.discovery.isActive(tool.name))) {
      yield errorResult(context, call, unavailableError(tool.name));
      continue;
    }
    let input: unknown;
    try {
      input = parseJsonStrict(call.function.arguments.trim() === '' ? '{}' : call.function.arguments);
    } catch (error) {
      yield errorResult(context, call, `Invalid JSON in the arguments of '${tool.name}': ${describeError(error)}`);
      continue;
    }
    if (tool.runsOn === 'client') {
      // A tool from the server's list that runs elsewhere needs the browser to have announced it
      // (a server tool of the same name as a frontend tool records it in `shadowed`); otherwise
      // nobody would ever answer the hand-off and the call would wait forever.
      if (tool.source === 'server' && !context.registry.shadowed.includes(tool.name)) {
        yield errorResult(context, call, unimplementedToolError(tool.name));
        continue;
      }
      interrupts.push({
        id: context.signer.clientToolInterruptId(context.threadId, call.id),
        reason: INTERRUPT_REASONS.clientTool,
        toolCallId: call.id,
        message: `Run '${tool.name}' in the browser and send its result.`,
      });
      continue;
    }
    const server = tool.server as NonNullable<RegisteredTool['server']>;
    const valid = await validateToolInput(server, input);
    if (!valid.ok) {
      yield errorResult(context, call, valid.error);
      continue;
    }
    let needsApproval: boolean;
    try {
      needsApproval = await resolveNeedsApproval(server, valid.value);
    } catch (error) {
      needsApproval = true; // a failing policy asks rather than runs
      void error;
    }
    if (!needsApproval) {
      serverCalls.push(call);
      continue;
    }
    const expiresAt = Date.now() + context.approvalTtlMs;
    const id = context.signer.approvalId(context.threadId, call, expiresAt, context.store.scope);
    if (id === undefined) {
      const canonical = canonicalArguments(call.function.arguments);
      yield errorResult(context, call, `The arguments of '${tool.name}' cannot be approved: ${canonical.ok ? 'they have no canonical form' : canonical.reason}.`);
      continue;
    }
    interrupts.push({
      id,
      reason: INTERRUPT_REASONS.toolApproval,
      toolCallId: call.id,
      message: `Allow '${tool.name}' to run with these arguments?`,
      expiresAt: new Date(expiresAt).toISOString(),
      responseSchema: {
        type: 'object',
        properties: { approved: { type: 'boolean' }, reason: { type: 'string' } },
        required: ['approved'],
      },
      metadata: { chatwire: { toolName: tool.name } },
    });
  }
  return { serverCalls, interrupts };
}

/** The error for a call nobody can run: named, with both ways to fix it. */
function unimplementedToolError(name: string): string {
  return (
    `Tool '${name}' has no implementation: the server registers its definition without .server(impl), ` +
    `and the browser did not announce it in this run's tools. Register ${name}.server(impl) on the server, ` +
    `or pass ${name}.client(impl) (or the definition, answered with addToolResult) in the browser's tools.`
  );
}

/** Runs server calls concurrently and yields each result as it settles. */
async function* executeServerCalls(context: LoopContext, calls: readonly ToolCall[]): AsyncGenerator<Event, void, undefined> {
  if (calls.length === 0) return;
  for (const call of calls) {
    yield { type: EventType.CUSTOM, name: CHATWIRE_EVENTS.toolExecuting, value: { toolCallId: call.id } };
  }
  const settled: Event[] = [];
  let wake: (() => void) | undefined;
  let remaining = calls.length;
  for (const call of calls) {
    void runServerCall(context, call).then((event) => {
      settled.push(event);
      remaining--;
      wake?.();
    });
  }
  while (remaining > 0 || settled.length > 0) {
    if (settled.length === 0) await new Promise<void>((resolve) => (wake = resolve));
    while (settled.length > 0) yield settled.shift() as Event;
  }
}

async function runServerCall(context: LoopContext, call: ToolCall): Promise<Event> {
  const tool = context.registry.get(call.function.name)?.server;
  if (!tool) return errorResult(context, call, `Unknown tool '${call.function.name}'.`);
  let input: unknown;
  try {
    input = parseJsonStrict(call.function.arguments.trim() === '' ? '{}' : call.function.arguments);
  } catch (error) {
    return errorResult(context, call, `Invalid JSON in the arguments of '${tool.name}': ${describeError(error)}`);
  }
  const outcome = await executeTool(tool, input, { toolCallId: call.id, signal: context.signal });
  if (outcome.ok) return resultEvent(context, call, outcome.content, {});
  if (!('thrown' in outcome)) return errorResult(context, call, outcome.error);
  // The tool threw: its text may hold secrets (connection strings, internal hosts). The model and the
  // client read a safe message unless the tool exposed it; the details go to onError.
  const ref = reportError(context.onError, { kind: 'tool', error: outcome.thrown, threadId: context.threadId, runId: context.runId, toolName: tool.name, toolCallId: call.id });
  const shown = isExposed(outcome.thrown) ? `Tool '${tool.name}' failed: ${redactSecrets(outcome.thrown.message)}` : `Tool '${tool.name}' failed (ref ${ref}; details are in the server log).`;
  return errorResult(context, call, shown);
}

function errorResult(context: LoopContext, call: ToolCall, error: string): Event {
  return resultEvent(context, call, JSON.stringify({ error }), { outcome: 'error', error });
}

/** A signed TOOL_CALL_RESULT, also appended to the working history. */
function resultEvent(context: LoopContext, call: ToolCall, content: string, meta: ResultMetadata): Event {
  const signature = context.signer.resultSignature(context.threadId, call, content);
  const metadata = { chatwire: { ...meta, signature } };
  const messageId = createId('tool');
  const message: ToolMessage = {
    id: messageId,
    role: 'tool',
    toolCallId: call.id,
    content,
    ...(meta.error ? { error: meta.error } : {}),
    metadata,
  };
  insertAfterCall(context.history, call.id, message);
  return { type: EventType.TOOL_CALL_RESULT, messageId, toolCallId: call.id, content, role: 'tool', metadata };
}

