import { ChatwireError, messageText, type ChatMessage, type ChatState, type ToolCallPart, type ToolCallState } from '@chatwire/core';
import { reduceChat, type ChatAction, type RecordedActions } from '@chatwire/core/shared';

/**
 * Time travel: the store's actions devtools recorded, and the chat after any of them, rebuilt by
 * replaying the chat's own pure reducer (`reduceChat`) from the state recording began with. Nothing
 * touches the live chat: the replay is a value of its own.
 */

/** One recorded action as the list shows it. */
export interface ActionRow {
  /** 1-based: the chat "after action n". */
  readonly step: number;
  /** Milliseconds since the first recorded action. */
  readonly offsetMs: number;
  readonly type: ChatAction['type'];
  /** What it did, in a few words: the event or command and what it is about. */
  readonly label: string;
  /** The tool call it concerns, when it concerns one. */
  readonly toolCallId: string | undefined;
}

/** An action row in words: its type, and what it did when that says more (`wireEvent · TOOL_CALL_START refundOrder`). */
export const actionText = (row: ActionRow): string => (row.label === row.type ? row.type : `${row.type} · ${row.label}`);

/** A few words on an action: its event type or command, and the message or call it concerns. */
export function actionRow(action: ChatAction, step: number, offsetMs: number): ActionRow {
  const row = (label: string, toolCallId?: string): ActionRow => ({ step, offsetMs, type: action.type, label, toolCallId });
  switch (action.type) {
    case 'wireEvent': {
      const event = action.event as { type: string; toolCallId?: unknown; toolCallName?: unknown; name?: unknown; delta?: unknown };
      const id = typeof event.toolCallId === 'string' ? event.toolCallId : undefined;
      const name =
        typeof event.toolCallName === 'string' ? ` ${event.toolCallName}` : typeof event.name === 'string' ? ` ${event.name}` : '';
      const delta = typeof event.delta === 'string' ? ` (${event.delta.length} chars)` : '';
      return row(`${event.type}${name}${delta}`, id);
    }
    case 'toolCall': {
      const event = action.event as { type: string; approved?: unknown };
      const answer = event.type === 'approvalResponse' ? (event.approved === true ? ' (approved)' : ' (denied)') : '';
      return row(`${event.type}${answer}`, action.toolCallId);
    }
    case 'userMessage':
      return row(`user message “${clip(messageText(action.message), 40)}”`);
    case 'interruptResponse':
      return row(`interrupt ${action.status}`);
    case 'failed':
      return row(`failed: ${clip(action.error.message, 60)}`);
    case 'usage':
      return row(`usage of model call ${action.usage.step}`);
    default:
      return row(action.type);
  }
}

const clip = (text: string, length: number) => (text.length > length ? `${text.slice(0, length - 1)}…` : text);

/** The list of a recording's actions. */
export function actionRows(recorded: RecordedActions): ActionRow[] {
  const start = recorded.actions[0]?.at ?? 0;
  return recorded.actions.map(({ action, at }, index) => actionRow(action, index + 1, at - start));
}

/** The reducers a recording's `wireEvent` actions name (they must be registered before a replay). */
export function reducersNamed(recorded: RecordedActions): Set<string> {
  const kinds = new Set<string>();
  for (const { action } of recorded.actions) if (action.type === 'wireEvent') kinds.add(action.reducer);
  return kinds;
}

/** A state every this many actions is kept, so going to any step replays at most that many. */
const CHECKPOINT_EVERY = 64;

/**
 * The chat after any step of a recording, replayed with `reduceChat` from its starting state.
 * States at every 64th step are kept as the replay passes them, so moving around a long recording
 * replays at most 64 actions per move (after the first pass to the farthest step).
 */
export class Replay {
  #recorded: RecordedActions;
  readonly #checkpoints: ChatState[];
  /** Reductions run so far (tests count them). */
  reductions = 0;

  constructor(recorded: RecordedActions) {
    this.#recorded = recorded;
    this.#checkpoints = [recorded.initial];
  }

  /**
   * Takes a later read of the same recording (actions were added since): the states replayed so far
   * stay valid. Returns false, changing nothing, for another recording (another start, or older
   * actions folded into it).
   */
  extend(recorded: RecordedActions): boolean {
    const known = this.#recorded.actions;
    const same =
      recorded.initial === this.#recorded.initial &&
      recorded.actions.length >= known.length &&
      (known.length === 0 || recorded.actions[known.length - 1] === known[known.length - 1]);
    if (same) this.#recorded = recorded;
    return same;
  }

  /** How many actions the recording holds. */
  get steps(): number {
    return this.#recorded.actions.length;
  }

  /** The chat after `step` actions (0: as recording began), clamped to the recording. */
  stateAt(step: number): ChatState {
    const target = Math.max(0, Math.min(Math.floor(step), this.steps));
    const from = Math.min(Math.floor(target / CHECKPOINT_EVERY), this.#checkpoints.length - 1);
    let state = this.#checkpoints[from] as ChatState;
    for (let index = from * CHECKPOINT_EVERY; index < target; index++) {
      state = reduceChat(state, (this.#recorded.actions[index] as { action: ChatAction }).action).state;
      this.reductions++;
      if ((index + 1) % CHECKPOINT_EVERY === 0 && this.#checkpoints.length === (index + 1) / CHECKPOINT_EVERY)
        this.#checkpoints.push(state);
    }
    return state;
  }
}

/** The replay of each recording, by the state it starts from (one recording is read again on every refresh). */
const replays = new WeakMap<ChatState, Replay>();

/** The replay of `recorded`: the one already made for its recording (extended to its new actions), or a new one. */
export function replayOf(recorded: RecordedActions): Replay {
  let replay = replays.get(recorded.initial);
  if (!replay?.extend(recorded)) replays.set(recorded.initial, (replay = new Replay(recorded)));
  return replay;
}

/** A tool call as the chat had it at the chosen step, beside its state in the live chat. */
export interface CallAtStep {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly state: ToolCallState;
  /** `requested`: waiting for the user's answer; `approved` / `denied` once answered; undefined without an approval. */
  readonly approval: 'requested' | 'approved' | 'denied' | undefined;
  /** Its state in the live chat now (undefined when the live chat no longer has it). */
  readonly liveState: ToolCallState | undefined;
}

/** A message as the chat had it at the chosen step. */
export interface MessageAtStep {
  readonly id: string;
  readonly role: ChatMessage['role'];
  readonly text: string;
  readonly calls: readonly CallAtStep[];
}

/** What the time-travel view shows of the chat at a step. */
export interface ChatAtStep {
  readonly status: ChatState['status'];
  readonly error: string | undefined;
  readonly messages: readonly MessageAtStep[];
  /** Calls waiting for the user's approval at that step. */
  readonly waitingForApproval: number;
}

const isCall = (part: ChatMessage['parts'][number]): part is ToolCallPart => part.type === 'tool-call';

/** The chat at a step, its calls beside their live states (`live`: the chat now). */
export function chatAtStep(state: ChatState, live: ChatState | undefined): ChatAtStep {
  const liveStates = new Map<string, ToolCallState>();
  for (const message of live?.messages ?? [])
    for (const part of message.parts) if (isCall(part)) liveStates.set(part.toolCallId, part.state);
  let waitingForApproval = 0;
  const messages = state.messages.map((message) => ({
    id: message.id,
    role: message.role,
    text: messageText(message),
    calls: message.parts.filter(isCall).map((part) => {
      const approval =
        part.approval === undefined
          ? undefined
          : part.approval.approved === undefined
            ? ('requested' as const)
            : part.approval.approved
              ? ('approved' as const)
              : ('denied' as const);
      if (part.state === 'approval-requested') waitingForApproval++;
      return {
        toolCallId: part.toolCallId,
        toolName: part.toolName,
        state: part.state,
        approval,
        liveState: liveStates.get(part.toolCallId),
      };
    }),
  }));
  return { status: state.status, error: state.error?.message, messages, waitingForApproval };
}

/** A chat error as JSON data. */
interface ErrorData {
  readonly name: string;
  readonly code: string;
  readonly message: string;
  readonly status?: number;
}

const errorData = (error: ChatwireError): ErrorData => ({
  name: error.name,
  code: error.code,
  message: error.message,
  ...(error.status === undefined ? {} : { status: error.status }),
});

/**
 * A recording as a record file keeps it: JSON data only (a chat error as its name, code, message
 * and status: an `Error`'s message is not a JSON field), without the chat's resume token.
 */
export function recordableActions(recorded: RecordedActions): RecordedActions {
  const { resumeToken: _token, ...initial } = recorded.initial;
  return {
    initial: { ...initial, error: initial.error ? (errorData(initial.error) as unknown as ChatwireError) : undefined },
    actions: recorded.actions.map((entry) =>
      entry.action.type === 'failed'
        ? { ...entry, action: { ...entry.action, error: errorData(entry.action.error) as unknown as ChatwireError } }
        : entry,
    ),
    folded: recorded.folded,
  };
}

const revive = (error: unknown): ChatwireError => {
  const data = (error ?? {}) as Partial<ErrorData>;
  return new ChatwireError((typeof data.code === 'string' ? data.code : 'run-error') as ChatwireError['code'], String(data.message ?? ''), {
    ...(typeof data.status === 'number' ? { status: data.status } : {}),
  });
};

/** A recording read from a record file, its chat errors made `ChatwireError`s again. */
export function revivedActions(recorded: RecordedActions): RecordedActions {
  return {
    initial: recorded.initial.error ? { ...recorded.initial, error: revive(recorded.initial.error) } : recorded.initial,
    actions: recorded.actions.map((entry) =>
      entry.action.type === 'failed' ? { ...entry, action: { ...entry.action, error: revive(entry.action.error) } } : entry,
    ),
    folded: recorded.folded,
  };
}
