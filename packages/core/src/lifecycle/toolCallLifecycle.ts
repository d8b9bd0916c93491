import { KnownShape } from '../base/knownShape.js';
import type { ApprovalDecision, ApprovalPayload, GrantOption } from '../protocol/chatwireProtocol.js';

/**
 * Where a tool call is in its lifecycle.
 *
 * ```
 * awaiting-input -> input-streaming -> input-complete -> (approval-requested -> approval-responded)
 *   -> executing -> output-available | output-error | cancelled
 * ```
 */
export type ToolCallState =
  | 'awaiting-input'
  | 'input-streaming'
  | 'input-complete'
  | 'approval-requested'
  | 'approval-responded'
  | 'executing'
  | 'output-available'
  | 'output-error'
  | 'cancelled';

/** Every {@link ToolCallState}, in lifecycle order. */
export const toolCallStates: readonly ToolCallState[] = [
  'awaiting-input',
  'input-streaming',
  'input-complete',
  'approval-requested',
  'approval-responded',
  'executing',
  'output-available',
  'output-error',
  'cancelled',
];

/** The states a call never leaves. */
export function isTerminalToolCallState(state: ToolCallState): boolean {
  return state === 'output-available' || state === 'output-error' || state === 'cancelled';
}

/** State of a tool call's result: `streaming` is reserved for results that arrive in pieces. */
export type ToolResultState = 'streaming' | 'complete' | 'error';

/** An approval request attached to a tool call. */
export interface ToolApproval {
  /** The id to answer with `addToolApprovalResponse({ id, approved })`. */
  readonly id: string;
  /** Who asked: the server (bound to the call by a signed token) or this client. */
  readonly requestedBy: 'server' | 'client';
  /** `undefined` until answered. */
  readonly approved?: boolean;
  readonly reason?: string;
  /** Opaque envelope from the server; sent back with the answer. */
  readonly metadata?: Record<string, unknown>;
  /** A server's approval: the prompt, the expiry (ISO 8601) and the run that asked (the next run's `parentRunId`). */
  readonly message?: string;
  readonly expiresAt?: string;
  readonly runId?: string;
  /**
   * @deprecated No longer set: read the call's own `sentIn` (the one record of "answered, not yet
   * sent" for results, denials and approvals alike).
   */
  readonly sentIn?: string;
  /** When it was answered (ms since epoch), and by whom: the user, or Chatwire when the user moved on. */
  readonly respondedAt?: number;
  readonly respondedBy?: 'user' | 'auto';
  /** A server's approval: the grants it offers with this answer (`once`, `thread`, `always`). */
  readonly grantOptions?: readonly GrantOption[];
  /** A server's approval that accepts edited arguments (AG-UI `editedArgs` in its `responseSchema`). */
  readonly editable?: boolean;
  /** The answer's extras, sent in its resume entry: edited arguments, a grant. */
  readonly answer?: Pick<ApprovalPayload, 'editedArgs' | 'grant' | 'grantArguments'>;
}

/** One entry of a call's timeline: the state it entered, and when (ms since epoch). */
export interface ToolCallTimelineEntry {
  readonly state: ToolCallState;
  readonly at: number;
}

/** The result of a tool call, once there is one. */
export interface ToolResult<Output = unknown> {
  readonly state: ToolResultState;
  /** Parsed output (when the content was JSON) on success. */
  readonly output?: Output;
  /** Error message on failure or cancellation. */
  readonly error?: string;
  /** What the model sees: the exact result text. */
  readonly content: string;
  /** Wire id of the tool message that carried the result. */
  readonly messageId?: string;
  /** Opaque metadata from the server (for example its signature over a server tool's result). */
  readonly metadata?: Record<string, unknown>;
}

/**
 * The state extensions keep on a tool-call part (`part.extensions`), by extension name. An
 * extension package names and types its entry by declaration merging:
 *
 * @example
 * ```ts
 * declare module '@chatwire/core' {
 *   interface ToolCallExtensions {
 *     readonly myExtension?: MyCallState;
 *   }
 * }
 * ```
 */
export interface ToolCallExtensions {
  readonly [extension: string]: unknown;
}

/**
 * A tool call as it appears in a message's parts. Immutable: every change produces a new object
 * through {@link transitionToolCall}.
 */
export interface ToolCallPart<Name extends string = string, Input = unknown, Output = unknown> {
  readonly type: 'tool-call';
  readonly toolCallId: string;
  readonly toolName: Name;
  readonly state: ToolCallState;
  /** Wire id of the assistant message that made the call. */
  readonly messageId: string;
  /** The raw argument text received so far. */
  readonly argsText: string;
  /** Best-effort parse of the arguments while they stream; the final value is `input`. */
  readonly partialInput: unknown;
  /** The arguments, from a strict parse once they are complete. */
  readonly input: Input | undefined;
  readonly approval?: ToolApproval;
  readonly result?: ToolResult<Output>;
  /** Why the call was cancelled (`denied`, `aborted`, ...). */
  readonly cancelReason?: string;
  /**
   * Who answers the call: `server` (it ran or asked for approval there) or `client` (a browser tool,
   * the app, or a call a run left unanswered). Unknown while the call streams.
   */
  readonly owner?: 'client' | 'server';
  /** Every state the call entered, with its time: what devtools' timeline shows. */
  readonly timeline: readonly ToolCallTimelineEntry[];
  /** The subagent invocation that made the call (absent: the agent itself). */
  readonly subagentRunId?: string;
  /** A provider's opaque reasoning artefact for this call (`REASONING_ENCRYPTED_VALUE`); it travels back with the history. */
  readonly encryptedValue?: string;
  /**
   * Set while the call's input is complete but its execution waits: `discovery` for a lazy browser
   * tool whose discovery may arrive later in the same response (held until the run ends);
   * `decision` while this browser decides the call (validates its input, asks its `needsApproval`,
   * or answers a client-managed discovery). The snapshot alone thus tells that the browser is still
   * at work on the turn.
   */
  readonly waitingFor?: ToolCallWait;
  /**
   * What extensions keep on this call, by extension name: the state their `CUSTOM` events built
   * (see `CustomEventExtension`, the client's `customEvents` option). Absent when none did, and in
   * conversations rebuilt from saved messages (it never goes back to the server).
   */
  readonly extensions?: ToolCallExtensions;
  /**
   * The run whose request carried this client's answer to the call (its result, error or denial, or
   * its answer to a server's approval); unset while the answer is not sent yet, and on calls this
   * client did not answer. See `answeredNotSent`.
   */
  readonly sentIn?: string;
  /** Who decided whether this server call ran (a policy, a grant, the user), from `chatwire.approval_decision`. */
  readonly decision?: ApprovalDecision;
}

/** What a call whose input is complete may wait for before it runs (see `ToolCallPart.waitingFor`). */
export type ToolCallWait = 'discovery' | 'decision';

/** What can happen to a tool call. */
export type ToolCallEvent =
  /** More argument text; `partialInput`, when present, is a fresh best-effort reading of all of it. */
  | { readonly type: 'inputDelta'; readonly delta: string; readonly partialInput?: unknown }
  /** The arguments are complete: their strict parse, or (`invalid`) why they are not JSON. */
  | { readonly type: 'inputEnd'; readonly input?: unknown; readonly invalid?: string }
  /**
   * Hold a complete input: until the run ends (`discovery`: a lazy browser tool whose discovery may
   * still arrive), or while this browser decides the call (`decision`).
   */
  | { readonly type: 'defer'; readonly waitingFor: ToolCallWait }
  /** The run ended: decide a held input again. */
  | { readonly type: 'resume' }
  | {
      readonly type: 'approvalRequest';
      readonly approvalId: string;
      readonly requestedBy: 'server' | 'client';
      readonly metadata?: Record<string, unknown>;
      readonly message?: string;
      readonly expiresAt?: string;
      readonly runId?: string;
    }
  | {
      readonly type: 'approvalResponse';
      readonly approved: boolean;
      readonly reason?: string;
      readonly by?: 'user' | 'auto';
      readonly answer?: ToolApproval['answer'];
    }
  | { readonly type: 'execute' }
  | {
      readonly type: 'output';
      readonly content: string;
      readonly output?: unknown;
      readonly messageId?: string;
      readonly metadata?: Record<string, unknown>;
    }
  | {
      readonly type: 'fail';
      readonly error: string;
      readonly content?: string;
      readonly messageId?: string;
      readonly metadata?: Record<string, unknown>;
    }
  | {
      readonly type: 'cancel';
      readonly reason: string;
      readonly content?: string;
      readonly messageId?: string;
      readonly metadata?: Record<string, unknown>;
    };

/** The names of {@link ToolCallEvent}s. */
export type ToolCallEventType = ToolCallEvent['type'];

/** Side effects a transition asks its owner to perform; the transition itself runs nothing. */
export type ToolCallEffect =
  /** The input is complete and valid: decide who executes it (or whether to ask for approval). */
  | { readonly type: 'inputReady' }
  /**
   * The user answered an approval. Whoever asked acts on it: this client runs or cancels its own
   * tool; a server's approval travels in the next run's resume entries.
   */
  | { readonly type: 'approvalAnswered'; readonly approved: boolean; readonly requestedBy: 'server' | 'client' }
  /** The call reached a terminal state. */
  | { readonly type: 'settled' };

interface TransitionRule {
  readonly target: ToolCallState;
  /** Extra condition on the call; a rule whose guard fails refuses the event. */
  readonly guard?: (call: ToolCallPart, event: ToolCallEvent) => boolean;
}

const approved = (call: ToolCallPart) => call.approval?.approved === true;
const held = (call: ToolCallPart) => call.waitingFor !== undefined;
const toError: TransitionRule = { target: 'output-error' };
const toCancelled: TransitionRule = { target: 'cancelled' };

/**
 * The lifecycle, as data: `transitions[state][event]` is the state the event leads to.
 * A pair missing from this table is refused. Nothing else changes a call's state.
 */
export const toolCallTransitions: Readonly<Record<ToolCallState, Partial<Readonly<Record<ToolCallEventType, TransitionRule>>>>> = {
  'awaiting-input': {
    inputDelta: { target: 'input-streaming' },
    inputEnd: { target: 'input-complete' },
    fail: toError,
    cancel: toCancelled,
  },
  'input-streaming': {
    inputDelta: { target: 'input-streaming' },
    inputEnd: { target: 'input-complete' },
    fail: toError,
    cancel: toCancelled,
  },
  'input-complete': {
    defer: { target: 'input-complete' },
    resume: { target: 'input-complete', guard: held },
    approvalRequest: { target: 'approval-requested' },
    execute: { target: 'executing' },
    // A plain AG-UI server may send a result without announcing execution.
    output: { target: 'output-available' },
    fail: toError,
    cancel: toCancelled,
  },
  'approval-requested': {
    approvalResponse: { target: 'approval-responded' },
    fail: toError,
    cancel: toCancelled,
  },
  'approval-responded': {
    execute: { target: 'executing', guard: approved },
    output: { target: 'output-available', guard: approved },
    fail: toError,
    cancel: toCancelled,
  },
  executing: {
    output: { target: 'output-available' },
    fail: toError,
    cancel: toCancelled,
  },
  'output-available': {},
  'output-error': {},
  cancelled: {},
};

/** The outcome of {@link transitionToolCall}. */
export interface ToolCallTransition {
  /** The new call, or the same object when the event was refused. */
  readonly call: ToolCallPart;
  readonly effects: readonly ToolCallEffect[];
  /** Why the event was refused, when it was. */
  readonly refused?: string;
}

/** Creates a call in `awaiting-input`, as when TOOL_CALL_START arrives (at `at`, ms since epoch). */
export function createToolCallPart(toolCallId: string, toolName: string, messageId: string, at = 0): ToolCallPart {
  return {
    timeline: [{ state: 'awaiting-input', at }],
    type: 'tool-call',
    toolCallId,
    toolName,
    state: 'awaiting-input',
    messageId,
    argsText: '',
    partialInput: undefined,
    input: undefined,
  };
}

/** The keys `createToolCallPart` gives a call, which it keeps while its arguments stream (see `KnownShape`). */
const STREAMING_CALL = /* @__PURE__ */ new KnownShape([
  'timeline',
  'type',
  'toolCallId',
  'toolName',
  'state',
  'messageId',
  'argsText',
  'partialInput',
  'input',
]);

/**
 * Applies one event to a call at time `at`: a pure function of its arguments. Refused events
 * return the same call with a `refused` reason; the caller reports them. A change of state is
 * recorded in the call's timeline.
 */
export function transitionToolCall(call: ToolCallPart, event: ToolCallEvent, at: number = lastAt(call)): ToolCallTransition {
  const result = applyEvent(call, event, at);
  if (result.call === call || result.call.state === call.state) return result;
  // A transition that passed through states on its way (invalid JSON: complete, then failed) recorded them already.
  if (result.call.timeline[result.call.timeline.length - 1]?.state === result.call.state) return result;
  return { ...result, call: { ...result.call, timeline: [...result.call.timeline, { state: result.call.state, at }] } };
}

const lastAt = (call: ToolCallPart) => call.timeline[call.timeline.length - 1]?.at ?? 0;

function applyEvent(call: ToolCallPart, event: ToolCallEvent, at: number): ToolCallTransition {
  const rule = toolCallTransitions[call.state][event.type];
  if (!rule) {
    return {
      call,
      effects: [],
      refused: `tool call ${call.toolCallId} (${call.toolName}) cannot take '${event.type}' in state '${call.state}'`,
    };
  }
  if (rule.guard && !rule.guard(call, event)) {
    const why = event.type === 'resume' ? 'when nothing is held' : 'after the approval was denied';
    return {
      call,
      effects: [],
      refused: `tool call ${call.toolCallId} (${call.toolName}) cannot take '${event.type}' in state '${call.state}' ${why}`,
    };
  }
  let next: ToolCallPart = call;
  const effects: ToolCallEffect[] = [];

  switch (event.type) {
    case 'inputDelta':
      // Two literals rather than a conditional spread: this runs for every argument delta.
      // A call with only the keys it was made with (the usual streaming call) is copied as a literal
      // naming them (see `KnownShape`: a spread costs many times more); any other call is spread.
      if (STREAMING_CALL.isExactly(call))
        next = STREAMING_CALL.made({
          timeline: call.timeline,
          type: call.type,
          toolCallId: call.toolCallId,
          toolName: call.toolName,
          state: rule.target,
          messageId: call.messageId,
          argsText: call.argsText + event.delta,
          partialInput: 'partialInput' in event ? event.partialInput : call.partialInput,
          input: call.input,
        });
      else
        next =
          'partialInput' in event
            ? { ...call, state: rule.target, argsText: call.argsText + event.delta, partialInput: event.partialInput }
            : { ...call, state: rule.target, argsText: call.argsText + event.delta };
      break;
    case 'inputEnd': {
      if (event.invalid !== undefined) {
        // All arguments arrived but they are not JSON: the call completes its input, then fails.
        const message = `Invalid JSON in the arguments of '${call.toolName}': ${event.invalid}`;
        const complete = { ...call, state: rule.target, timeline: [...call.timeline, { state: rule.target, at }] };
        return transitionToolCall(complete, { type: 'fail', error: message }, at);
      }
      next = { ...call, state: rule.target, input: event.input, partialInput: event.input };
      effects.push({ type: 'inputReady' });
      break;
    }
    case 'defer':
      next = { ...call, waitingFor: event.waitingFor };
      break;
    case 'resume': {
      const { waitingFor: _released, ...rest } = call;
      next = rest;
      effects.push({ type: 'inputReady' });
      break;
    }
    case 'approvalRequest': {
      // The event's fields are the approval's (whoever builds the event leaves out what it lacks).
      const { type: _type, approvalId: id, ...fields } = event;
      next = { ...call, state: rule.target, approval: { id, ...fields } };
      break;
    }
    case 'approvalResponse': {
      const approval = call.approval as ToolApproval;
      next = {
        ...call,
        state: rule.target,
        approval: {
          ...approval,
          approved: event.approved,
          respondedAt: at,
          respondedBy: event.by ?? 'user',
          ...(event.reason === undefined ? {} : { reason: event.reason }),
          ...(event.answer ? { answer: event.answer } : {}),
        },
      };
      effects.push({ type: 'approvalAnswered', approved: event.approved, requestedBy: approval.requestedBy });
      break;
    }
    case 'execute':
      next = { ...call, state: rule.target };
      break;
    case 'output':
      next = {
        ...call,
        state: rule.target,
        result: settledResult(event, {
          state: 'complete',
          content: event.content,
          ...(event.output === undefined ? {} : { output: event.output }),
        }),
      };
      effects.push({ type: 'settled' });
      break;
    case 'fail':
    case 'cancel': {
      const error = event.type === 'fail' ? event.error : cancelMessage(event.reason, call);
      next = {
        ...call,
        state: rule.target,
        ...(event.type === 'cancel' ? { cancelReason: event.reason } : {}),
        result: settledResult(event, { state: 'error', error, content: event.content ?? JSON.stringify({ error }) }),
      };
      effects.push({ type: 'settled' });
      break;
    }
  }
  if (next.waitingFor !== undefined && next.state !== 'input-complete') {
    // Whatever ended a held call also ends the hold.
    const { waitingFor: _released, ...rest } = next;
    next = rest;
  }
  return { call: next, effects };
}

/** A result with the wire ids and metadata its event carried. */
function settledResult(
  event: { readonly messageId?: string; readonly metadata?: Record<string, unknown> },
  result: ToolResult,
): ToolResult {
  return {
    ...result,
    ...(event.messageId === undefined ? {} : { messageId: event.messageId }),
    ...(event.metadata === undefined ? {} : { metadata: event.metadata }),
  };
}

function cancelMessage(reason: string, call: ToolCallPart): string {
  if (reason === 'denied') {
    const why = call.approval?.reason;
    return `The user declined to run '${call.toolName}'${why ? `: ${why}` : '.'}`;
  }
  if (reason === 'aborted') return `The call to '${call.toolName}' was stopped before it finished.`;
  return `The call to '${call.toolName}' was cancelled: ${reason}`;
}

/** Whether a rule in the table allows `event` from `state` (ignoring guards). */
export function isToolCallEventAllowed(state: ToolCallState, event: ToolCallEventType): boolean {
  return toolCallTransitions[state][event] !== undefined;
}
