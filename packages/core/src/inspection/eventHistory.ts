import type { Event as WireEvent, RunAgentInput } from '@ag-ui/core';
import type { AppMessage, InspectionEvent } from './inspection.js';
import type { ChatSnapshot, ChatState } from '../model/chatState.js';
import { reduceChat, type ChatAction } from '../reduce/chatReducer.js';

/** One recorded AG-UI event. */
export interface RecordedEvent {
  readonly at: number;
  readonly runId: string;
  readonly event: WireEvent;
}

/** One recorded request (run input) of a turn. */
export interface RecordedRun {
  readonly at: number;
  readonly runId: string;
  readonly input: RunAgentInput;
}

/** What happened during one turn, as the wire saw it. */
export interface HistoryTurn {
  /** The id of the user message that started it (or of the first run, for turns without one). */
  readonly id: string;
  readonly startedAt: number;
  readonly runs: readonly RecordedRun[];
  readonly events: readonly RecordedEvent[];
  /** Events not kept because the turn exceeded its cap. */
  readonly dropped: number;
  /**
   * Messages between the page and the MCP Apps shown in the chat, in order (at most as many as
   * events); absent in records made before they were recorded.
   */
  readonly appMessages?: readonly RecordedAppMessage[];
}

/** One recorded message between the page and an MCP App. */
export interface RecordedAppMessage extends AppMessage {
  readonly at: number;
}

/** A snapshot of the chat when it settled (a turn ended), and when. */
export interface SettledSnapshot {
  readonly at: number;
  readonly snapshot: ChatSnapshot;
}

/** One action the chat's store reduced, and when. */
export interface RecordedAction {
  readonly at: number;
  readonly action: ChatAction;
}

/**
 * The store's actions since recording began: the state before the first one kept, and the actions
 * in the order the store reduced them. `reduceChat` over them, from `initial`, gives the chat's
 * state after each (the reducers are pure).
 */
export interface RecordedActions {
  /** The chat's state before `actions[0]`: when recording began, or after the actions folded into it. */
  readonly initial: ChatState;
  readonly actions: readonly RecordedAction[];
  /** Older actions applied to `initial` to keep the list within its cap (they are no longer listed). */
  readonly folded: number;
}

/** Limits of {@link EventHistory}. */
export interface EventHistoryOptions {
  /** Turns kept, oldest dropped first. Defaults to 50. */
  readonly turns?: number;
  /** Events kept per turn (later ones are counted in `dropped`). Defaults to 2,000. */
  readonly eventsPerTurn?: number;
  /**
   * The store's actions kept for time travel (`HistoryRecorder.actions`); past this many, the oldest is
   * applied to the starting state instead of kept. `0` records none. Defaults to 5,000.
   */
  readonly actions?: number;
}

interface MutableTurn {
  id: string;
  startedAt: number;
  runs: RecordedRun[];
  events: RecordedEvent[];
  dropped: number;
  appMessages: RecordedAppMessage[];
  /** The read-only copy `turns()` last handed out, until the turn records something new. */
  copy: HistoryTurn | undefined;
}

/**
 * A bounded record of the last turns' requests and events. `ChatClient` keeps none itself: whoever
 * wants one (devtools, an app's logging) attaches one with {@link recordHistory}. Recording keeps
 * references to events already parsed: one array push per event, no copies and no notifications.
 */
class EventHistory {
  readonly #maxTurns: number;
  readonly #maxEvents: number;
  readonly #turns: MutableTurn[] = [];
  readonly #snapshots: SettledSnapshot[] = [];
  #settled = true;
  readonly #maxActions: number;
  #initial: ChatState | undefined;
  readonly #actions: RecordedAction[] = [];
  /** Where the kept actions start in `#actions` (those before it were folded into `#initial`). */
  #firstAction = 0;
  /** Folded actions already dropped from `#actions`. */
  #folded = 0;

  constructor(options: EventHistoryOptions = {}, initial?: ChatState) {
    this.#maxTurns = Math.max(1, options.turns ?? 50);
    this.#maxEvents = Math.max(1, options.eventsPerTurn ?? 2_000);
    this.#maxActions = Math.max(0, Math.floor(options.actions ?? 5_000));
    this.#initial = initial;
  }

  /** Records an action (when there is a starting state to replay it from). */
  action(action: ChatAction, at: number): void {
    if (this.#initial === undefined || this.#maxActions === 0) return;
    this.#actions.push({ at, action });
    if (this.#actions.length - this.#firstAction <= this.#maxActions) return;
    // Over the cap: the oldest kept action joins the starting state (reduced once, as the store did).
    this.#initial = reduceChat(this.#initial, (this.#actions[this.#firstAction] as RecordedAction).action).state;
    this.#firstAction++;
    // Drop the folded entries in batches, so a long chat does not shift the array on every action.
    if (this.#firstAction >= 1_024) {
      this.#actions.splice(0, this.#firstAction);
      this.#folded += this.#firstAction;
      this.#firstAction = 0;
    }
  }

  /** The recorded actions, or `undefined` when none can be (no starting state). */
  actions(): RecordedActions | undefined {
    if (this.#initial === undefined || this.#maxActions === 0) return undefined;
    return { initial: this.#initial, actions: this.#actions.slice(this.#firstAction), folded: this.#folded + this.#firstAction };
  }

  /** Starts a turn (a user message was sent). */
  startTurn(id: string, at: number): void {
    this.#turns.push({ id, startedAt: at, runs: [], events: [], dropped: 0, appMessages: [], copy: undefined });
    if (this.#turns.length > this.#maxTurns) this.#turns.splice(0, this.#turns.length - this.#maxTurns);
  }

  #current(runId: string, at: number): MutableTurn {
    let turn = this.#turns[this.#turns.length - 1];
    if (!turn) {
      this.startTurn(runId, at);
      turn = this.#turns[this.#turns.length - 1] as MutableTurn;
    }
    return turn;
  }

  /** Records a request. */
  request(runId: string, input: RunAgentInput, at: number): void {
    const turn = this.#current(runId, at);
    turn.runs.push({ at, runId, input });
    turn.copy = undefined;
  }

  /** Records an event. */
  event(runId: string, event: WireEvent, at: number): void {
    const turn = this.#current(runId, at);
    if (turn.events.length < this.#maxEvents) turn.events.push({ at, runId, event });
    else turn.dropped++;
    turn.copy = undefined;
  }

  /** Records a message between the page and an MCP App (past the turn's cap: counted in `dropped`). */
  app(message: RecordedAppMessage): void {
    const turn = this.#current(message.toolCallId, message.at);
    if (turn.appMessages.length < this.#maxEvents) turn.appMessages.push(message);
    else turn.dropped++;
    turn.copy = undefined;
  }

  /** Keeps the snapshot each time the chat settles (`ready` or `error` after anything else): a reference, no copy. */
  snapshot(snapshot: ChatSnapshot, at: number): void {
    const settled = snapshot.status === 'ready' || snapshot.status === 'error';
    if (settled && !this.#settled) {
      this.#snapshots.push({ at, snapshot });
      if (this.#snapshots.length > this.#maxTurns) this.#snapshots.splice(0, this.#snapshots.length - this.#maxTurns);
    }
    this.#settled = settled;
  }

  /** The settled snapshots, oldest first. */
  snapshots(): readonly SettledSnapshot[] {
    return [...this.#snapshots];
  }

  /**
   * The recorded turns, oldest first (a copy of the list; the entries are read-only). A turn that recorded
   * nothing since the last call is the same object as then: a panel that reads the history several times a
   * second copies only the turn in progress, and can tell an unchanged turn by its reference.
   */
  turns(): readonly HistoryTurn[] {
    return this.#turns.map((turn) => {
      turn.copy ??= {
        id: turn.id,
        startedAt: turn.startedAt,
        runs: [...turn.runs],
        events: [...turn.events],
        dropped: turn.dropped,
        appMessages: [...turn.appMessages],
      };
      return turn.copy;
    });
  }
}

/** A history fed by a client's inspection stream. */
export interface HistoryRecorder {
  /** The recorded turns, oldest first. */
  turns(): readonly HistoryTurn[];
  /** The chat's snapshot each time it settled since recording began, oldest first (as many as turns are kept). */
  snapshots(): readonly SettledSnapshot[];
  /**
   * The store's actions since recording began, with the state before the first (time travel: replay
   * them with `reduceChat`). `undefined` when the client gave no starting state (`getSnapshot`) or
   * `actions: 0` turned them off.
   */
  actions(): RecordedActions | undefined;
  /** Stops recording (what was recorded stays readable). */
  stop(): void;
}

/**
 * Records a client's turns, requests, events and store actions from now on, bounded by `options`.
 * Devtools attaches one when it mounts (in development builds only), so production clients record
 * nothing. Actions are recorded when the client has `getSnapshot` (the state they start from).
 *
 * @example
 * ```ts
 * const recorder = recordHistory(client, { turns: 20 });
 * // later: recorder.turns()
 * ```
 */
export function recordHistory(
  client: { inspect(observer: (event: InspectionEvent) => void): () => void; getSnapshot?(): ChatSnapshot },
  options: EventHistoryOptions = {},
): HistoryRecorder {
  const history = new EventHistory(options, client.getSnapshot?.());
  const stop = client.inspect((event) => {
    if (event.type === 'action') history.action(event.action, event.at);
    else if (event.type === 'turn') history.startTurn(event.id, event.at);
    else if (event.type === 'request') history.request(event.runId, event.input, event.at);
    else if (event.type === 'event') history.event(event.runId, event.event, event.at);
    else if (event.type === 'snapshot') history.snapshot(event.snapshot, event.at);
    else if (event.type === 'app') {
      const { type: _type, ...message } = event;
      history.app(message);
    }
  });
  return { turns: () => history.turns(), snapshots: () => history.snapshots(), actions: () => history.actions(), stop };
}
