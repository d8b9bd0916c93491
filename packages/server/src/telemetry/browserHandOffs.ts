import type { Span } from '@opentelemetry/api';

/** How many browser calls wait for their answer at most (the oldest is closed unanswered past it). */
const MAX_WAITING = 1_000;
/** How long a browser call's span waits for its answer before it is closed unanswered. */
const MAX_WAIT_MS = 60 * 60_000;

interface Waiting {
  readonly span: Span;
  readonly since: number;
}

/**
 * The `execute_tool` spans of browser calls handed off by a run (it ended with them pending): each
 * ends when a later request of this process carries the call's result. Bounded in count and age;
 * a span closed without an answer says so (`chatwire.tool.outcome: unanswered`).
 */
class BrowserHandOffs {
  readonly #waiting = new Map<string, Waiting>();

  /** Keeps a handed-off call's span open until its answer. */
  add(toolCallId: string, span: Span, now = Date.now()): void {
    this.#sweep(now);
    this.#waiting.get(toolCallId)?.span.end();
    this.#waiting.set(toolCallId, { span, since: now });
    if (this.#waiting.size > MAX_WAITING) {
      const [oldest] = this.#waiting.keys();
      if (oldest !== undefined) this.#close(oldest);
    }
  }

  /** The span of a call that was handed off and not answered yet (removed: its answer is here). */
  take(toolCallId: string): Span | undefined {
    const waiting = this.#waiting.get(toolCallId);
    if (!waiting) return undefined;
    this.#waiting.delete(toolCallId);
    return waiting.span;
  }

  /** How many calls wait. */
  get size(): number {
    return this.#waiting.size;
  }

  #sweep(now: number): void {
    for (const [id, waiting] of this.#waiting) {
      if (now - waiting.since <= MAX_WAIT_MS) break;
      this.#close(id);
    }
  }

  #close(id: string): void {
    const waiting = this.#waiting.get(id);
    this.#waiting.delete(id);
    waiting?.span.setAttribute('chatwire.tool.outcome', 'unanswered');
    waiting?.span.end();
  }
}

/** The process's browser hand-offs (runs of one process share them; another instance's answer is not seen). */
export const browserHandOffs = new BrowserHandOffs();
