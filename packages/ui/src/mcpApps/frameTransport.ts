import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/core';

/**
 * The postMessage transport between the page and one MCP App's frame, in place of ext-apps'
 * `PostMessageTransport`, for what that one does not do: it counts and bounds what a frame sends
 * (an app posting 10,000 messages a second has all but `maxPerSecond` of each second dropped
 * before they are parsed, and is stopped once it keeps flooding), and it logs nothing per message
 * (the ext-apps transport writes `console.debug` for each one, and `console.error` for each
 * malformed one an app can send at will). Messages are checked with the MCP SDK's own JSON-RPC
 * schema; anything else is counted and ignored.
 */

/** Options of {@link FrameTransport}. */
export interface FrameTransportOptions {
  /** The app's frame: only messages from its window are read, and answers go to it. */
  readonly frame: HTMLIFrameElement;
  /** Messages read per second at most; the rest of the second's are dropped. Defaults to 100. */
  readonly maxPerSecond?: number;
  /** Messages dropped in one second that make the app a flood (`onFlood`). Defaults to 1,000. */
  readonly floodAfter?: number;
  /** Called once when the app floods. */
  readonly onFlood?: () => void;
  /** Sees each message read or sent (devtools' timeline). */
  readonly onTraffic?: (direction: 'in' | 'out', message: JSONRPCMessage) => void;
  /** The clock the seconds are counted on. Defaults to `performance.now`. */
  readonly now?: () => number;
}

/** What one transport counted. */
export interface FrameTraffic {
  /** Messages read and handed to the bridge. */
  readonly received: number;
  /** Messages dropped by the rate limit, unread. */
  readonly dropped: number;
  /** Messages read that were not JSON-RPC. */
  readonly invalid: number;
  /** Messages sent to the app. */
  readonly sent: number;
}

/** A `Transport` (MCP SDK) over one frame's `postMessage`, with the bounds above. */
export class FrameTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #frame: HTMLIFrameElement;
  readonly #maxPerSecond: number;
  readonly #floodAfter: number;
  readonly #options: FrameTransportOptions;
  readonly #now: () => number;
  #received = 0;
  #dropped = 0;
  #invalid = 0;
  #sent = 0;
  #secondStart = Number.NEGATIVE_INFINITY;
  #readThisSecond = 0;
  #droppedThisSecond = 0;
  #flooded = false;
  #closed = false;

  constructor(options: FrameTransportOptions) {
    this.#options = options;
    this.#frame = options.frame;
    this.#maxPerSecond = options.maxPerSecond ?? 100;
    this.#floodAfter = options.floodAfter ?? 1_000;
    this.#now = options.now ?? (() => performance.now());
  }

  /** What it counted so far. */
  get traffic(): FrameTraffic {
    return { received: this.#received, dropped: this.#dropped, invalid: this.#invalid, sent: this.#sent };
  }

  readonly #listen = (event: MessageEvent): void => {
    if (this.#closed || event.source === null || event.source !== this.#frame.contentWindow) return;
    const now = this.#now();
    if (now - this.#secondStart >= 1_000) {
      this.#secondStart = now;
      this.#readThisSecond = 0;
      this.#droppedThisSecond = 0;
    }
    if (this.#readThisSecond >= this.#maxPerSecond) {
      this.#dropped++;
      if (++this.#droppedThisSecond >= this.#floodAfter && !this.#flooded) {
        this.#flooded = true;
        this.#options.onFlood?.();
      }
      return;
    }
    this.#readThisSecond++;
    const parsed = JSONRPCMessageSchema.safeParse(event.data);
    if (!parsed.success) {
      this.#invalid++;
      return;
    }
    this.#received++;
    this.#options.onTraffic?.('in', parsed.data);
    this.onmessage?.(parsed.data);
  };

  async start(): Promise<void> {
    window.addEventListener('message', this.#listen);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) return;
    const target = this.#frame.contentWindow;
    if (!target) return;
    this.#sent++;
    this.#options.onTraffic?.('out', message);
    // The frame's origin is opaque ("null"), which no target origin names: '*' is the only one that reaches it.
    target.postMessage(message, '*');
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    window.removeEventListener('message', this.#listen);
    this.onclose?.();
  }
}
