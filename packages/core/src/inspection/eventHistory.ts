import type { Event as WireEvent, RunAgentInput } from '@ag-ui/core';
import type { AppMessage, InspectionEvent } from './inspection.js';
import type { ChatSnapshot } from '../model/chatState.js';

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

/** Limits of {@link EventHistory}. */
export interface EventHistoryOptions {
  /** Turns kept, oldest dropped first. Defaults to 50. */
  readonly turns?: number;
  /** Events kept per turn (later ones are counted in `dropped`). Defaults to 2,000. */
  readonly eventsPerTurn?: number;
}

interface MutableTurn {
  id: string;
  startedAt: number;
  runs: RecordedRun[];
  events: RecordedEvent[];
  dropped: number;
  appMessages: RecordedAppMessage[];
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

  constructor(options: EventHistoryOptions = {}) {
    this.#maxTurns = Math.max(1, options.turns ?? 50);
    this.#maxEvents = Math.max(1, options.eventsPerTurn ?? 2_000);
  }

  /** Starts a turn (a user message was sent). */
  startTurn(id: string, at: number): void {
    this.#turns.push({ id, startedAt: at, runs: [], events: [], dropped: 0, appMessages: [] });
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
    this.#current(runId, at).runs.push({ at, runId, input });
  }

  /** Records an event. */
  event(runId: string, event: WireEvent, at: number): void {
    const turn = this.#current(runId, at);
    if (turn.events.length < this.#maxEvents) turn.events.push({ at, runId, event });
    else turn.dropped++;
  }

  /** Records a message between the page and an MCP App (past the turn's cap: counted in `dropped`). */
  app(message: RecordedAppMessage): void {
    const turn = this.#current(message.toolCallId, message.at);
    if (turn.appMessages.length < this.#maxEvents) turn.appMessages.push(message);
    else turn.dropped++;
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

  /** The recorded turns, oldest first (a copy of the list; the entries are read-only). */
  turns(): readonly HistoryTurn[] {
    return this.#turns.map((turn) => ({ ...turn, runs: [...turn.runs], events: [...turn.events], appMessages: [...turn.appMessages] }));
  }
}

/** A history fed by a client's inspection stream. */
export interface HistoryRecorder {
  /** The recorded turns, oldest first. */
  turns(): readonly HistoryTurn[];
  /** The chat's snapshot each time it settled since recording began, oldest first (as many as turns are kept). */
  snapshots(): readonly SettledSnapshot[];
  /** Stops recording (what was recorded stays readable). */
  stop(): void;
}

/**
 * Records a client's turns, requests and events from now on, bounded by `options`. Devtools attaches
 * one when it mounts (in development builds only), so production clients record nothing.
 *
 * @example
 * ```ts
 * const recorder = recordHistory(client, { turns: 20 });
 * // later: recorder.turns()
 * ```
 */
export function recordHistory(
  client: { inspect(observer: (event: InspectionEvent) => void): () => void },
  options: EventHistoryOptions = {},
): HistoryRecorder {
  const history = new EventHistory(options);
  const stop = client.inspect((event) => {
    if (event.type === 'turn') history.startTurn(event.id, event.at);
    else if (event.type === 'request') history.request(event.runId, event.input, event.at);
    else if (event.type === 'event') history.event(event.runId, event.event, event.at);
    else if (event.type === 'snapshot') history.snapshot(event.snapshot, event.at);
    else if (event.type === 'app') {
      const { type: _type, ...message } = event;
      history.app(message);
    }
  });
  return { turns: () => history.turns(), snapshots: () => history.snapshots(), stop };
}
