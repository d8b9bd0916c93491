import { EventType, type Event, type Interrupt, type Message, type TokenUsage } from '@ag-ui/core';
import { APPROVAL_DECISION_EVENT, DISCOVERY_TOOL_NAME, type AnyTool, type ApprovalDecision, type ModelCallUsage } from '@chatwire/core';
import { CHATWIRE_EVENTS, INTERRUPT_REASONS, type ResultMetadata } from '@chatwire/core/shared';
import { addModelCall, type ConversationUsage } from '@chatwire/core/wire';
import type { Attributes, Context, Span, Tracer } from '@opentelemetry/api';
import { approvalFactsOf, extensionOf, NAMESPACES } from '../extensions/chatwireExtension.js';
import type { ChatOptions } from '../run/chatOptions.js';
import { CHATWIRE, GEN_AI, SPAN_EVENTS } from './attributes.js';
import { browserHandOffs } from './browserHandOffs.js';
import type { GenAiInstruments } from './genAiMetrics.js';
import type { OtelApi } from './otelApi.js';
import { conversationNets } from './conversationNets.js';

/** The Code Mode events tracing reads: nested calls become spans under their `execute_typescript` call. */
const CODE_MODE = {
  executionStarted: `${NAMESPACES.codeMode}execution_started`,
  externalCall: `${NAMESPACES.codeMode}external_call`,
  externalResult: `${NAMESPACES.codeMode}external_result`,
  externalError: `${NAMESPACES.codeMode}external_error`,
  executionFinished: `${NAMESPACES.codeMode}execution_finished`,
} as const;

interface ModelCall {
  readonly span: Span;
  readonly step: number;
  readonly startedAt: number;
  firstChunkAt?: number;
  toolCalls: number;
  text: string;
  usage?: ModelCallUsage;
}

/** Events that are the model's response streaming (the first one is the call's first chunk). */
const RESPONSE_EVENTS = new Set<string>([
  EventType.TEXT_MESSAGE_START,
  EventType.TEXT_MESSAGE_CONTENT,
  EventType.TOOL_CALL_START,
  EventType.TOOL_CALL_ARGS,
  EventType.REASONING_START,
  EventType.REASONING_MESSAGE_CONTENT,
]);

const seconds = (ms: number) => ms / 1000;

/** A result's content as one string (multimodal parts as their JSON). */
const textOf = (content: string | readonly unknown[]): string => (typeof content === 'string' ? content : JSON.stringify(content));

/**
 * Turns one run's AG-UI events into spans in the GenAI conventions, as they pass: `invoke_agent`
 * (the run), `chat` (each model call, `STEP_STARTED` to `STEP_FINISHED`), `execute_tool` (each
 * tool call: a server call from `chatwire.tool_executing` to its result, a Code Mode execution's
 * nested calls inside it, a browser call from its hand-off to the answer in a later request), and
 * approvals and grants as span events. Every figure is read from the events (the discovery
 * accounting of `chatwire.model_call_usage`), none recomputed.
 */
export class RunTrace {
  readonly #api: OtelApi;
  readonly #tracer: Tracer;
  readonly #root: Span;
  readonly #context: Context;
  readonly #options: ChatOptions;
  readonly #metrics: GenAiInstruments | undefined;
  readonly #recordInputs: boolean;
  readonly #recordOutputs: boolean;
  readonly #names = new Map<string, string>();
  readonly #arguments = new Map<string, string>();
  readonly #argumentsEndedAt = new Map<string, number>();
  readonly #tools = new Map<string, Span>();
  readonly #nested = new Map<string, Span>();
  readonly #baseAttributes: Attributes;
  #toolsByName: Map<string, AnyTool> | undefined;
  #call: ModelCall | undefined;
  #threadId: string | undefined;
  #run: ConversationUsage | undefined;
  #saved = 0;
  #roundTrips = 0;
  #discoveryInPlay = false;
  #grantsUsed = 0;
  #ended = false;

  constructor(api: OtelApi, tracer: Tracer, root: Span, parent: Context, options: ChatOptions, metrics: GenAiInstruments | undefined) {
    this.#api = api;
    this.#tracer = tracer;
    this.#root = root;
    this.#context = api.trace.setSpan(parent, root);
    this.#options = options;
    this.#metrics = metrics;
    this.#recordInputs = options.telemetry?.recordInputs === true;
    this.#recordOutputs = options.telemetry?.recordOutputs === true;
    this.#baseAttributes = { [GEN_AI.provider]: options.model.provider, [GEN_AI.requestModel]: options.model.model };
    root.setAttributes({
      [GEN_AI.operation]: 'invoke_agent',
      [GEN_AI.agentName]: options.telemetry?.agentName ?? 'chatwire',
      ...this.#baseAttributes,
    });
    if (this.#recordInputs) {
      root.setAttribute(GEN_AI.inputMessages, JSON.stringify(options.messages));
      if (options.system !== undefined) root.setAttribute(GEN_AI.systemInstructions, options.system);
    }
    this.#answerHandOffs(options.messages);
  }

  /** Observes one event of the run, as it goes to the client. */
  observe(event: Event): void {
    switch (event.type) {
      case EventType.RUN_STARTED:
        this.#threadId = event.threadId;
        this.#root.setAttributes({ [GEN_AI.conversationId]: event.threadId, [CHATWIRE.runId]: event.runId });
        return;
      case EventType.STEP_STARTED:
        if (event.stepName.startsWith('model-call-')) this.#startModelCall(Number(event.stepName.slice('model-call-'.length)));
        return;
      case EventType.STEP_FINISHED:
        if (this.#call && event.stepName === `model-call-${this.#call.step}`) this.#endModelCall();
        return;
      case EventType.TOOL_CALL_START:
        this.#names.set(event.toolCallId, event.toolCallName);
        if (this.#call) this.#call.toolCalls++;
        break;
      case EventType.TOOL_CALL_ARGS:
        if (this.#recordInputs) this.#arguments.set(event.toolCallId, (this.#arguments.get(event.toolCallId) ?? '') + event.delta);
        break;
      case EventType.TOOL_CALL_END:
        this.#argumentsEndedAt.set(event.toolCallId, Date.now());
        return;
      case EventType.TEXT_MESSAGE_CONTENT:
        if (this.#call && this.#recordOutputs) this.#call.text += event.delta;
        break;
      case EventType.TOOL_CALL_RESULT:
        this.#toolResult(
          event.toolCallId,
          textOf(event.content),
          (event as { metadata?: { chatwire?: ResultMetadata } }).metadata?.chatwire,
        );
        return;
      case EventType.CUSTOM:
        this.#custom(event.name, event.value);
        return;
      case EventType.RUN_FINISHED:
        this.#finished(event.outcome ?? { type: 'success' }, event.usage);
        return;
      case EventType.RUN_ERROR:
        this.#root.setAttribute(GEN_AI.errorType, event.code ?? 'agent-error');
        this.#root.setStatus({ code: this.#api.SpanStatusCode.ERROR, message: event.message });
        if (event.usage) this.#usageOn(this.#root, event.usage);
        return;
      default:
        break;
    }
    if (this.#call && this.#call.firstChunkAt === undefined && RESPONSE_EVENTS.has(event.type)) this.#call.firstChunkAt = Date.now();
  }

  /** Ends the run's spans: after its last event, or when the stream stopped or threw (`error`). */
  end(error?: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    if (error !== undefined) {
      this.#root.recordException(error instanceof Error ? error : { message: 'A value that is not an Error was thrown.' });
      this.#root.setAttribute(GEN_AI.errorType, error instanceof Error ? error.name : '_OTHER');
      this.#root.setStatus({ code: this.#api.SpanStatusCode.ERROR });
    }
    if (this.#call) this.#endModelCall();
    // Calls still open when the run ends: stopped, or waiting for the user's input past this run.
    for (const span of [...this.#nested.values(), ...this.#tools.values()]) {
      span.setAttribute(CHATWIRE.toolOutcome, 'unfinished');
      span.end();
    }
    this.#nested.clear();
    this.#tools.clear();
    if (this.#discoveryInPlay) {
      this.#root.setAttributes({ [CHATWIRE.tokensSaved]: this.#saved, [CHATWIRE.roundTripTokens]: this.#roundTrips });
      if (this.#run) this.#root.setAttribute(CHATWIRE.netTokens, this.#run.net);
      this.#metrics?.runSaved.record(this.#saved, this.#baseAttributes);
      this.#metrics?.runRoundTrips.record(this.#roundTrips, this.#baseAttributes);
    }
    const conversation = this.#threadId === undefined ? undefined : conversationNets.get(this.#threadId);
    if (conversation) this.#root.setAttribute(CHATWIRE.conversationNet, conversation.net);
    this.#root.setAttribute(CHATWIRE.grantsUsed, this.#grantsUsed);
    this.#root.end();
  }

  #startModelCall(step: number): void {
    if (this.#call) this.#endModelCall();
    const span = this.#tracer.startSpan(
      `chat ${this.#options.model.model}`,
      {
        kind: this.#api.SpanKind.CLIENT,
        attributes: { [GEN_AI.operation]: 'chat', ...this.#baseAttributes, [CHATWIRE.step]: step },
      },
      this.#context,
    );
    this.#call = { span, step, startedAt: Date.now(), toolCalls: 0, text: '' };
  }

  #endModelCall(): void {
    const call = this.#call;
    if (!call) return;
    this.#call = undefined;
    const now = Date.now();
    call.span.setAttribute(GEN_AI.finishReasons, [call.toolCalls > 0 ? 'tool_calls' : 'stop']);
    if (this.#recordOutputs && call.text !== '')
      call.span.setAttribute(
        GEN_AI.outputMessages,
        JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: call.text }], finish_reason: 'stop' }]),
      );
    call.span.end(now);
    const metricAttributes = { [GEN_AI.operation]: 'chat', ...this.#baseAttributes };
    this.#metrics?.duration.record(seconds(now - call.startedAt), metricAttributes);
    if (call.firstChunkAt !== undefined) this.#metrics?.firstChunk.record(seconds(call.firstChunkAt - call.startedAt), metricAttributes);
    const provider = call.usage?.providerUsage;
    const input = provider?.inputTokens ?? call.usage?.tokens.input;
    if (input !== undefined) this.#metrics?.tokenUsage.record(input, { ...metricAttributes, [GEN_AI.tokenType]: 'input' });
    if (provider?.outputTokens !== undefined)
      this.#metrics?.tokenUsage.record(provider.outputTokens, { ...metricAttributes, [GEN_AI.tokenType]: 'output' });
  }

  /** A model call's accounting: the GenAI usage figures and Chatwire's discovery figures, as counted. */
  #modelCallUsage(usage: ModelCallUsage): void {
    const call = this.#call;
    if (!call) return;
    call.usage = usage;
    const provider = usage.providerUsage as (ModelCallUsage['providerUsage'] & { cacheWriteInputTokens?: number }) | undefined;
    const input = provider?.inputTokens ?? usage.tokens.input;
    const searches = usage.discoverySearches ?? [];
    call.span.setAttributes({
      ...(input === undefined ? {} : { [GEN_AI.inputTokens]: input }),
      ...(provider?.outputTokens === undefined ? {} : { [GEN_AI.outputTokens]: provider.outputTokens }),
      ...(provider?.cachedInputTokens === undefined ? {} : { [GEN_AI.cacheReadTokens]: provider.cachedInputTokens }),
      ...(provider?.cacheWriteInputTokens === undefined ? {} : { [GEN_AI.cacheCreationTokens]: provider.cacheWriteInputTokens }),
      [CHATWIRE.toolsSent]: [...usage.toolsSent],
      [CHATWIRE.toolsSentCount]: usage.toolsSent.length,
      [CHATWIRE.toolsWithheld]: [...usage.toolsDeferred],
      [CHATWIRE.toolsWithheldCount]: usage.toolsDeferred.length,
      [CHATWIRE.toolsDiscovered]: [...usage.newlyDiscovered],
      [CHATWIRE.toolTokensSent]: usage.tokens.sent,
      [CHATWIRE.toolTokensAllEager]: usage.tokens.allEager,
      [CHATWIRE.tokensSaved]: usage.tokens.saved,
      [CHATWIRE.roundTripTokens]: usage.tokens.discoveryRoundTrips,
      [CHATWIRE.netTokens]: usage.tokens.net,
      [CHATWIRE.discoveryStep]: usage.discoveryStep === true,
      [CHATWIRE.countingMethod]: usage.counting.method,
      ...(searches.length === 0
        ? {}
        : {
            [CHATWIRE.searchAnswered]: searches.map((search: { by: string }) => search.by),
            [CHATWIRE.searchFallback]: searches.map((search: { fallback?: string }) => search.fallback ?? 'none'),
          }),
    });
    this.#saved += usage.tokens.saved;
    this.#roundTrips += usage.tokens.discoveryRoundTrips;
    if (usage.toolsDeferred.length > 0 || usage.tokens.discoveryTool > 0 || usage.tokens.discoveryRoundTrips > 0)
      this.#discoveryInPlay = true;
    this.#run = addModelCall(this.#run, usage);
    if (this.#threadId !== undefined) {
      const conversation = conversationNets.add(this.#threadId, usage);
      call.span.setAttribute(CHATWIRE.conversationNet, conversation.net);
    }
  }

  #custom(name: string, value: unknown): void {
    const record = (value ?? {}) as Record<string, unknown>;
    if (name === CHATWIRE_EVENTS.modelCallUsage) this.#modelCallUsage(value as ModelCallUsage);
    else if (name === CHATWIRE_EVENTS.toolExecuting && typeof record['toolCallId'] === 'string') this.#startTool(record['toolCallId']);
    else if (name === APPROVAL_DECISION_EVENT) this.#decision(value as ApprovalDecision);
    else if (name === CODE_MODE.externalCall) this.#startNested(record);
    else if (name === CODE_MODE.externalResult || name === CODE_MODE.externalError) this.#endNested(record);
    else if (name === CODE_MODE.executionStarted) {
      const parent = this.#tools.get(String(record['toolCallId']));
      parent?.addEvent(SPAN_EVENTS.codeModeStarted, { [CHATWIRE.codeModeExecution]: String(record['executionId']) });
    } else if (name === CODE_MODE.executionFinished) {
      const parent = this.#tools.get(String(record['toolCallId']));
      if (typeof record['toolCalls'] === 'number') parent?.setAttribute(CHATWIRE.codeModeToolCalls, record['toolCalls']);
    }
  }

  #toolAttributes(toolCallId: string, name: string): Attributes {
    const tool = this.#tool(name);
    const mcpServer = tool && extensionOf(tool)?.namespace === 'mcp' ? approvalFactsOf(tool)?.server : undefined;
    const discovery = name === DISCOVERY_TOOL_NAME;
    return {
      [GEN_AI.operation]: 'execute_tool',
      [GEN_AI.toolName]: name,
      [GEN_AI.toolCallId]: toolCallId,
      [GEN_AI.toolType]: mcpServer === undefined ? 'function' : 'extension',
      ...(tool?.description ? { [GEN_AI.toolDescription]: tool.description } : {}),
      [CHATWIRE.toolKind]: discovery ? 'discovery' : mcpServer !== undefined ? 'mcp' : 'server',
      ...(mcpServer === undefined ? {} : { [CHATWIRE.mcpServer]: mcpServer, [GEN_AI.mcpMethod]: 'tools/call' }),
      ...(this.#recordInputs && this.#arguments.has(toolCallId) ? { [GEN_AI.toolArguments]: this.#arguments.get(toolCallId) } : {}),
    };
  }

  #startTool(toolCallId: string, startTime?: number): Span {
    const name = this.#nameOf(toolCallId);
    const span = this.#tracer.startSpan(
      `execute_tool ${name}`,
      { kind: this.#api.SpanKind.INTERNAL, attributes: this.#toolAttributes(toolCallId, name), ...(startTime ? { startTime } : {}) },
      this.#context,
    );
    this.#tools.set(toolCallId, span);
    return span;
  }

  #toolResult(toolCallId: string, content: string, meta: ResultMetadata | undefined): void {
    let span = this.#tools.get(toolCallId);
    if (!span) {
      // Answered without running as a server call: a discovery, a call-to-load's error, a refused call.
      if (meta?.outcome === 'cancelled') return;
      span = this.#startTool(toolCallId, this.#argumentsEndedAt.get(toolCallId));
    }
    this.#tools.delete(toolCallId);
    if (meta?.outcome === 'error') {
      span.setAttribute(GEN_AI.errorType, 'tool_error');
      span.setStatus({ code: this.#api.SpanStatusCode.ERROR, ...(meta.error ? { message: meta.error } : {}) });
    }
    span.setAttribute(CHATWIRE.toolOutcome, meta?.outcome ?? 'success');
    if (meta?.discoveredTools?.length) span.setAttribute(CHATWIRE.toolLoaded, [...meta.discoveredTools]);
    if (meta?.undiscovered) span.setAttribute(CHATWIRE.toolUndiscovered, true);
    if (this.#recordOutputs) span.setAttribute(GEN_AI.toolResult, content);
    span.end();
  }

  #startNested(record: Record<string, unknown>): void {
    const parent = this.#tools.get(String(record['toolCallId']));
    const callId = String(record['callId']);
    const name = String(record['toolName']);
    const parentContext = parent ? this.#api.trace.setSpan(this.#context, parent) : this.#context;
    const span = this.#tracer.startSpan(
      `execute_tool ${name}`,
      {
        kind: this.#api.SpanKind.INTERNAL,
        attributes: {
          ...this.#toolAttributes(callId, name),
          [CHATWIRE.codeModeExecution]: String(record['executionId']),
          ...(this.#recordInputs && record['input'] !== undefined ? { [GEN_AI.toolArguments]: JSON.stringify(record['input']) } : {}),
        },
      },
      parentContext,
    );
    this.#nested.set(`${String(record['executionId'])}\u0000${callId}`, span);
  }

  #endNested(record: Record<string, unknown>): void {
    const key = `${String(record['executionId'])}\u0000${String(record['callId'])}`;
    const span = this.#nested.get(key);
    if (!span) return;
    this.#nested.delete(key);
    if (record['error'] !== undefined) {
      span.setAttribute(GEN_AI.errorType, 'tool_error');
      span.setStatus({ code: this.#api.SpanStatusCode.ERROR });
    } else if (this.#recordOutputs && record['output'] !== undefined)
      span.setAttribute(GEN_AI.toolResult, JSON.stringify(record['output']));
    span.setAttribute(CHATWIRE.toolOutcome, record['error'] === undefined ? 'success' : 'error');
    span.end();
  }

  #decision(decision: ApprovalDecision): void {
    if (decision.by === 'grant') this.#grantsUsed++;
    this.#root.addEvent(SPAN_EVENTS.approvalDecided, {
      [GEN_AI.toolCallId]: decision.toolCallId,
      [GEN_AI.toolName]: decision.toolName,
      [CHATWIRE.approvalBy]: decision.by,
      [CHATWIRE.approvalDecision]: decision.decision,
      ...(decision.grant ? { [CHATWIRE.grantScope]: decision.grant.scope } : {}),
    });
  }

  #finished(
    outcome: { type: string; interrupts?: readonly Interrupt[]; pendingToolCallIds?: readonly string[] },
    usage: readonly TokenUsage[] | undefined,
  ): void {
    this.#root.setAttribute(CHATWIRE.outcome, outcome.type);
    if (usage) this.#usageOn(this.#root, usage);
    for (const interrupt of outcome.interrupts ?? []) {
      const toolCallId = interrupt.toolCallId;
      const approval = interrupt.reason === INTERRUPT_REASONS.toolApproval;
      this.#root.addEvent(approval ? SPAN_EVENTS.approvalRequested : SPAN_EVENTS.inputRequested, {
        [CHATWIRE.interruptReason]: interrupt.reason,
        ...(toolCallId === undefined ? {} : { [GEN_AI.toolCallId]: toolCallId, [GEN_AI.toolName]: this.#nameOf(toolCallId) }),
      });
    }
    // Browser calls: each one's span runs from the hand-off to the request that brings its answer.
    for (const toolCallId of outcome.pendingToolCallIds ?? []) {
      const name = this.#nameOf(toolCallId);
      const span = this.#tracer.startSpan(
        `execute_tool ${name}`,
        {
          kind: this.#api.SpanKind.INTERNAL,
          attributes: { ...this.#toolAttributes(toolCallId, name), [CHATWIRE.toolKind]: 'browser' },
          ...(this.#argumentsEndedAt.has(toolCallId) ? { startTime: this.#argumentsEndedAt.get(toolCallId) } : {}),
        },
        this.#context,
      );
      this.#root.addEvent(SPAN_EVENTS.browserHandOff, { [GEN_AI.toolCallId]: toolCallId, [GEN_AI.toolName]: name });
      browserHandOffs.add(toolCallId, span);
    }
  }

  /** Ends the spans of browser calls whose answers this request carries. */
  #answerHandOffs(messages: readonly Message[]): void {
    if (browserHandOffs.size === 0) return;
    for (const message of messages) {
      if (message.role !== 'tool') continue;
      const span = browserHandOffs.take(message.toolCallId);
      if (!span) continue;
      span.setAttribute(CHATWIRE.toolOutcome, message.error ? 'error' : 'success');
      if (message.error) span.setStatus({ code: this.#api.SpanStatusCode.ERROR, message: message.error });
      if (this.#recordOutputs) span.setAttribute(GEN_AI.toolResult, textOf(message.content));
      span.end();
    }
  }

  /** A run's usage (one entry per provider and model) summed on its span. */
  #usageOn(span: Span, usages: readonly TokenUsage[]): void {
    const sum = (key: 'inputTokens' | 'outputTokens' | 'cachedInputTokens' | 'cacheWriteInputTokens') => {
      const figures = usages.map((usage) => (usage as Partial<Record<typeof key, number>>)[key]).filter((figure) => figure !== undefined);
      return figures.length === 0 ? undefined : figures.reduce((total, figure) => total + figure, 0);
    };
    const [inputTokens, outputTokens, cachedInputTokens, cacheWrite] = [
      sum('inputTokens'),
      sum('outputTokens'),
      sum('cachedInputTokens'),
      sum('cacheWriteInputTokens'),
    ];
    span.setAttributes({
      ...(inputTokens === undefined ? {} : { [GEN_AI.inputTokens]: inputTokens }),
      ...(outputTokens === undefined ? {} : { [GEN_AI.outputTokens]: outputTokens }),
      ...(cachedInputTokens === undefined ? {} : { [GEN_AI.cacheReadTokens]: cachedInputTokens }),
      ...(cacheWrite === undefined ? {} : { [GEN_AI.cacheCreationTokens]: cacheWrite }),
    });
  }

  #tool(name: string): AnyTool | undefined {
    this.#toolsByName ??= new Map((this.#options.tools ?? []).map((tool) => [tool.name, tool]));
    return this.#toolsByName.get(name);
  }

  /** A call's tool name: from this run's stream, else from the request's history (an approved call). */
  #nameOf(toolCallId: string): string {
    const known = this.#names.get(toolCallId);
    if (known !== undefined) return known;
    for (const message of this.#options.messages) {
      if (message.role !== 'assistant') continue;
      const call = message.toolCalls?.find((candidate) => candidate.id === toolCallId);
      if (call) {
        this.#names.set(toolCallId, call.function.name);
        return call.function.name;
      }
    }
    return 'unknown';
  }
}
