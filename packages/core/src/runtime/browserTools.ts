import type { ToolCallChange } from '../reduce/chatReducer.js';
import { describeError } from '../base/errors.js';
import type { ToolCallPart } from '../lifecycle/toolCallLifecycle.js';
import type { BrowserToolHost, BrowserToolRuntime } from './browserToolRuntime.js';
import type { Turn } from './turn.js';

/**
 * Hands tool-call effects to the browser tool runtime (`BrowserToolRuntime`: it tells `onToolCall`,
 * validates, asks for approval, runs browser tools, answers discovery), which loads as a lazy chunk:
 * at construction when the app defines browser tools or client-managed discovery, else with the
 * first effect (a chat that only streams text never fetches it).
 *
 * While the chunk loads, effects wait in the order they came (every later batch behind the first
 * that waits), the chat is busy (`busy`, `waiting`: a run's end does not rest the turn under them),
 * and a stop (`abortAll`) drops them. Once loaded, effects go to the runtime at once, as before.
 */
export class BrowserTools {
  readonly #host: BrowserToolHost;
  #runtime: BrowserToolRuntime | undefined;
  #loading: Promise<void> | undefined;
  /** What waits for the runtime, in the order it came, with the turn it came in. */
  readonly #waiting: { readonly turn: Turn; readonly job: (runtime: BrowserToolRuntime) => unknown }[] = [];

  constructor(host: BrowserToolHost) {
    this.#host = host;
    if (host.manageDiscovery() || host.tools().some((tool) => tool.kind === 'client')) void this.#load();
  }

  /** Effects wait for the runtime's chunk (the snapshot does not show them yet). */
  get waiting(): boolean {
    return this.#waiting.some((entry) => entry.turn.current);
  }

  /** Whether effects wait for the runtime, or a browser tool is deciding or executing (what `stop()` aborts). */
  get busy(): boolean {
    return this.waiting || !!this.#runtime?.busy;
  }

  /** Performs every effect of one dispatch's changes (see `BrowserToolRuntime.perform`). */
  perform(changes: readonly ToolCallChange[]): void {
    this.#run((runtime) => runtime.perform(changes));
  }

  /**
   * Picks up the current turn's browser calls that never ran (see `BrowserToolRuntime.runPending`);
   * returns how many: before the runtime loaded, the calls it will pick up (none runs yet).
   */
  runPending(calls: readonly ToolCallPart[]): number {
    if (this.#runtime && !this.waiting) return this.#runtime.runPending(calls);
    const tools = this.#host.tools();
    const count = calls.filter(
      (call) =>
        call.owner === 'client' &&
        (call.state === 'executing' ||
          (call.state === 'input-complete' && tools.some((tool) => tool.kind === 'client' && tool.name === call.toolName))),
    ).length;
    if (count) this.#run((runtime) => runtime.runPending(calls));
    return count;
  }

  /** Aborts every execution in flight, and drops the effects that wait for the runtime. */
  abortAll(): void {
    this.#waiting.length = 0;
    this.#runtime?.abortAll();
  }

  #run(job: (runtime: BrowserToolRuntime) => unknown): void {
    if (this.#runtime && !this.waiting) {
      job(this.#runtime);
      return;
    }
    const turn = this.#host.turn();
    // An ended turn's effects (a stop's cancellations) would be dropped once the chunk loaded: they
    // neither wait nor keep the next turn busy.
    if (!turn.current) return;
    this.#waiting.push({ turn, job });
    void this.#load();
  }

  /** Loads the runtime (once), then performs what waits for it, in order, and lets the client decide what follows. */
  #load(): Promise<void> {
    return (this.#loading ??= import('./browserToolRuntime.js').then(
      ({ BrowserToolRuntime }) => {
        const runtime = (this.#runtime = new BrowserToolRuntime(this.#host));
        // A job's dispatches may add effects: they wait behind the older ones, as in the store's mailbox.
        // What came during a turn that has ended since (stopped, replaced) is dropped, as its work would be.
        let last: Turn | undefined;
        for (let next = this.#waiting.shift(); next; next = this.#waiting.shift()) {
          if (!next.turn.current) continue;
          try {
            next.job(runtime);
          } catch (error) {
            // One job that throws (an app callback) neither leaves the rest waiting nor the chat busy.
            this.#host.warn(`A browser tool effect failed: ${describeError(error)}`);
          }
          last = next.turn;
        }
        if (last) this.#host.settled(last);
      },
      (error: unknown) => {
        // Nothing that waited could run; the next effect tries again.
        this.#loading = undefined;
        const last = this.#waiting.at(-1)?.turn;
        this.#waiting.length = 0;
        this.#host.warn(`The browser tool runtime did not load: ${describeError(error)}`);
        if (last) this.#host.settled(last);
      },
    ));
  }
}
