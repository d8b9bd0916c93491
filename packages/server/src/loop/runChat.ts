import { setMaxListeners } from 'node:events';
import {
  EventType,
  PROTOCOL_VERSION,
  aggregateTokenUsage,
  type Event,
  type Message,
  type RunFinishedOutcome,
  type TokenUsage,
  type ToolCall,
} from '@ag-ui/core';
import { CHATWIRE_EVENTS, MODEL_REQUEST_EVENT, createId, mayRunLazyCall } from '@chatwire/core/shared';
import { ProviderError } from '../errors/providerErrors.js';
import { reportError, safeModelMessage } from '../errors/errorReport.js';
import { extensionUsage } from '../extensions/chatwireExtension.js';
import { ChatRequestError } from '../errors/chatRequestError.js';
import { withCallReplaced, withEveryCallAnswered } from '../history/reviewHistory.js';
import { decisionEvent, grantFromAnswer, runApprovalsOf } from './runApprovals.js';
import { CallSigner } from '../binding/signing.js';
import {
  DEFAULT_APPROVAL_TTL_MS,
  DEFAULT_INPUT_TIMEOUT_MS,
  DEFAULT_MAX_ITERATIONS,
  storeOf,
  type ChatOptions,
} from '../run/chatOptions.js';
import { streamModelStep } from './modelStep.js';
import { providerSearchResult } from './providerSearchResult.js';
import { reviewChatRequest, type ReviewedRequest } from './reviewChatRequest.js';
import type { RunContext } from '../run/runContext.js';
import { adding, withAdditionsOf, withMessages } from './historyAdditions.js';
import { executeServerCalls } from './serverCalls.js';
import { errorResult, deniedResult, resultEvent } from './resultEvents.js';
import type { DiscoveryAnswer } from '../discovery/lazyDiscovery.js';
import { prepareServerCall, triageCalls, type PreparedCall } from './triageCalls.js';
import { tracedRun } from '../telemetry/tracedRun.js';
import { makeAppCall, withoutAppCalls } from './appCalls.js';
import { systemWithContext } from './modelContext.js';
import { recordedRun } from '../run/runRecords.js';
import { modelRequestRecord } from '../model/modelRequestRecord.js';
import type { InspectedRequest } from '../discovery/discoveryAccounting.js';

/**
 * The agent loop of one AG-UI run. `reviewed` is the review `createChatHandler` already made (and
 * whose approvals it claimed) before answering; without it the run reviews the request itself.
 * `signer` is the handler's (its key resolved at the handler's first request).
 *
 * The run ends with RUN_FINISHED: `success` when the model answered without tools, or left calls
 * of frontend tools for the application (`pendingToolCallIds`); `interrupt` when calls wait for an
 * approval, or a running server tool waits for the user's input (`requestInput`: the call keeps
 * running, and the next run's resume entry hands it the answer); `cancelled` when it was stopped or reached `maxIterations`. RUN_ERROR when it failed.
 */
export function runChat(
  options: ChatOptions,
  reviewed: ReviewedRequest | undefined,
  signer = new CallSigner(options.secret),
): AsyncGenerator<Event, void, undefined> {
  // OpenTelemetry spans and metrics when the app registered an SDK (telemetry/), and the run's record
  // when the app asked for one (records/): else the loop's own events, untouched.
  return tracedRun(options, recordedRun(options, runLoop(options, reviewed, signer)));
}

async function* runLoop(
  options: ChatOptions,
  reviewed: ReviewedRequest | undefined,
  signer: CallSigner,
): AsyncGenerator<Event, void, undefined> {
  // Without a secret in production, `chat()` refuses before any event (ChatwireConfigError), as it always did.
  signer.ready();
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
  const finished = (outcome: RunFinishedOutcome): Event => ({
    type: EventType.RUN_FINISHED,
    threadId,
    runId,
    outcome,
    ...(usage.length ? { usage: aggregateTokenUsage(usage) } : {}),
  });
  let openStep: string | undefined;
  yield {
    type: EventType.RUN_STARTED,
    threadId,
    runId,
    protocolVersion: PROTOCOL_VERSION,
    ...(options.parentRunId === undefined ? {} : { parentRunId: options.parentRunId }),
  };

  try {
    const review = reviewed ?? (await reviewChatRequest({ ...options, threadId }, true, signer));
    // The run's history: only this loop changes it, by adding what each step returns (a model step's
    // messages, the tool message or assistant message an event carries, see historyAdditions.ts).
    let history: readonly Message[] = review.messages;
    /** The event, once what it adds is in the history. */
    const joined = (event: Event): Event => {
      history = withAdditionsOf(history, event);
      return event;
    };
    /** A step's events, each joined as it goes out (so the step reads its own results when it resumes); its outcome. */
    async function* joining<Outcome>(step: AsyncGenerator<Event, Outcome, undefined>): AsyncGenerator<Event, Outcome, undefined> {
      let ended = false;
      try {
        for (;;) {
          const next = await step.next();
          ended = next.done === true;
          if (next.done) return next.value;
          yield joined(next.value);
        }
      } finally {
        // Stopped from outside (the reader returned): the step's own cleanup runs, as through `yield*`.
        if (!ended) await step.return(undefined as Outcome);
      }
    }
    const context: RunContext = {
      threadId,
      runId,
      signer,
      signal,
      tools: review.tools,
      get history() {
        return history;
      },
      store: storeOf(options),
      approvalTtlMs: options.approvalTtlMs ?? DEFAULT_APPROVAL_TTL_MS,
      inputRequestTimeoutMs: options.inputRequestTimeoutMs ?? DEFAULT_INPUT_TIMEOUT_MS,
      onError: options.onError,
      approvals: runApprovalsOf(options),
    };

    // What the user decided on the previous run's approvals and input requests happens first.
    for (const { call, reason, answer } of review.denied) {
      yield decisionEvent(await grantFromAnswer(context, call, answer, false));
      yield joined(deniedResult(context, call, reason));
    }
    for (const { call, error } of review.lateInputs) yield joined(errorResult(context, call, error));
    const approved: PreparedCall[] = [];
    for (const { call: asked, answer } of review.approved) {
      yield decisionEvent(await grantFromAnswer(context, asked, answer, true));
      // Approved with edits: the call runs with them, and the model reads them as the call's arguments.
      const call = answer?.edited?.call ?? asked;
      if (call !== asked) history = withCallReplaced(history, call);
      const registered = context.tools.registry.get(call.function.name);
      const tool = registered?.server;
      // An approved call of a lazy tool nobody discovered is its discovery (call-to-load): its result says so.
      const { discovery } = context.tools;
      const discovers =
        registered !== undefined && !(await mayRunLazyCall(registered, () => discovery.discovered(history), discovery.deferring));
      const prepared = tool
        ? await prepareServerCall(tool, call, discovers)
        : { ok: false as const, error: `Unknown tool '${call.function.name}'.` };
      if (prepared.ok)
        approved.push(call === asked ? prepared.prepared : { ...prepared.prepared, editedArguments: call.function.arguments });
      else yield joined(errorResult(context, call, prepared.error, call === asked ? {} : { editedArguments: call.function.arguments }));
    }
    // Calls waiting for input get their answers and stream the rest of their work here.
    const stillWaiting = yield* joining(executeServerCalls(context, approved, review.inputAnswers));
    if (stillWaiting.length > 0) {
      yield finished({ type: 'interrupt', interrupts: stillWaiting });
      return;
    }

    // An MCP App's call (or the run that continues it after its approval): made, and no model is called.
    if (options.appCall) {
      const made = yield* joining(makeAppCall(context, options.appCall));
      const waiting = yield* joining(executeServerCalls(context, made.serverCalls));
      const interrupts = [...made.interrupts, ...waiting];
      yield finished(interrupts.length > 0 ? { type: 'interrupt', interrupts } : { type: 'success' });
      return;
    }
    // The system prompt with the run input's context entries, as every model call of the run reads it.
    const system = systemWithContext(options.system, options.context);

    // Prefetch (opt-in): the best matches of the user's message are loaded before the first model call.
    const prefetched = await context.tools.discovery.prefetch(context.history);
    if (prefetched) for (const event of prefetchExchange(context, prefetched.call, prefetched.answer)) yield joined(event);

    const maxIterations = options.maxIterations ?? DEFAULT_MAX_ITERATIONS;
    for (let iteration = 0; iteration < maxIterations; iteration++) {
      // Stopped while tools ran: end as a stopped run, not silently.
      signal.throwIfAborted();
      openStep = `model-call-${iteration + 1}`;
      yield { type: EventType.STEP_STARTED, stepName: openStep };
      const plan = await context.tools.discovery.plan(context.history);
      // The calls MCP Apps made are not the model's: it never reads them.
      const sentMessages = withoutAppCalls(withEveryCallAnswered(context.history));
      // Development: the request as the adapter sends it, for devtools, before the call (a call that fails still shows it).
      const inspected = options.inspectRequests
        ? context.tools.discovery.inspectRequest({ system, messages: sentMessages, tools: plan.tools })
        : undefined;
      if (inspected) yield requestEvent(options, inspected, { runId, step: iteration + 1, messages: sentMessages });
      const step = yield* streamModelStep(options.model, system, context, plan.tools, sentMessages, plan.deferredTools);
      history = withMessages(history, step.added);
      if (step.usage) usage.push(step.usage);
      const accounting = context.tools.discovery.usage({
        runId,
        step: iteration + 1,
        plan,
        system,
        messages: sentMessages,
        providerUsage: providerUsageOf(step.usage),
        ...(inspected?.serialisation === 'adapter' ? { counted: inspected.counted } : {}),
      });
      // Server packages' shares (Code Mode's), for the tools of theirs this call was sent.
      const shares = extensionUsage(
        plan.tools.map((tool) => context.tools.registry.get(tool.name)?.server),
        { messages: sentMessages, system, toolsSent: accounting.toolsSent, counter: context.tools.counter },
        (error) => reportError(options.onError, { kind: 'run', error, threadId, runId }),
      );
      yield { type: EventType.CUSTOM, name: CHATWIRE_EVENTS.modelCallUsage, value: { ...accounting, ...shares } };
      yield { type: EventType.STEP_FINISHED, stepName: openStep };
      openStep = undefined;
      // Provider-native deferred loading: the provider ran these searches itself; they are answered with what they loaded, vetted.
      for (const search of step.searches)
        yield joined(providerSearchResult(context, search, plan.deferredTools ?? [], options.model.provider));
      if (step.calls.length === 0) {
        yield finished({ type: 'success' });
        return;
      }

      const triage = yield* joining(triageCalls(context, step.calls));
      // Calls that asked the user for input keep running, waiting; the run ends asking with their interrupts.
      const waiting = yield* joining(executeServerCalls(context, triage.serverCalls));
      if (triage.interrupts.length > 0 || waiting.length > 0) {
        // Frontend calls of the same response stay pending too; a consumer derives them from the stream.
        yield finished({ type: 'interrupt', interrupts: [...triage.interrupts, ...waiting] });
        return;
      }
      if (triage.pending.length > 0) {
        yield finished({ type: 'success', pendingToolCallIds: triage.pending });
        return;
      }
    }
    // The model still had results to read: stopped by a limit the server enforces.
    yield finished({ type: 'cancelled' });
  } catch (error) {
    if (signal.aborted) {
      // Stopped by the user (or the client went away): a stop is not a failure, so the run closes
      // as cancelled, with what it opened closed first (the model step closed its own message and calls).
      if (openStep !== undefined) yield { type: EventType.STEP_FINISHED, stepName: openStep };
      yield finished({ type: 'cancelled' });
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

/** The `chatwire.model_request` event of a model call (see `ChatOptions.inspectRequests`). */
function requestEvent(
  options: ChatOptions,
  inspected: InspectedRequest,
  call: { readonly runId: string; readonly step: number; readonly messages: readonly Message[] },
): Event {
  const value = modelRequestRecord(inspected.counted, {
    ...call,
    provider: options.model.provider,
    model: options.model.model,
    counting: inspected.counting,
    serialisation: inspected.serialisation,
  });
  return { type: EventType.CUSTOM, name: MODEL_REQUEST_EVENT, value };
}

/** The provider's own figures for one model call, as `chatwire.model_call_usage` carries them. */
function providerUsageOf(usage: TokenUsage | undefined) {
  if (!usage) return undefined;
  const { inputTokens, outputTokens, totalTokens, cachedInputTokens, cacheWriteInputTokens } = usage;
  return {
    ...(cacheWriteInputTokens === undefined ? {} : { cacheWriteInputTokens }),
    ...(inputTokens === undefined ? {} : { inputTokens }),
    ...(outputTokens === undefined ? {} : { outputTokens }),
    ...(totalTokens === undefined ? {} : { totalTokens }),
    ...(cachedInputTokens === undefined ? {} : { cachedInputTokens }),
  };
}

/** The prefetch's discovery exchange, streamed like a model's discovery call and answered at once (its events carry its messages). */
function* prefetchExchange(context: RunContext, call: ToolCall, answer: DiscoveryAnswer): Generator<Event> {
  const messageId = createId('msg');
  yield { type: EventType.TOOL_CALL_START, toolCallId: call.id, toolCallName: call.function.name, parentMessageId: messageId };
  yield { type: EventType.TOOL_CALL_ARGS, toolCallId: call.id, delta: call.function.arguments };
  yield adding({ type: EventType.TOOL_CALL_END, toolCallId: call.id }, [{ id: messageId, role: 'assistant', toolCalls: [call] }]);
  yield answer.ok ? resultEvent(context, call, answer.content, {}) : errorResult(context, call, answer.error ?? 'discovery failed');
}
