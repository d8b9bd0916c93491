import type { ToolServerEvent } from '@chatwire/core/shared';

/** Events each server keeps for the catalog status (the oldest go first). */
const KEPT_EVENTS = 50;

/** Each server's recent events (connection states, tool-list changes), the last 50 per server. */
export class ServerEvents {
  readonly #events = new Map<string, ToolServerEvent[]>();

  /** Records an event of `server`, dropping its oldest past 50. */
  record(server: string, event: ToolServerEvent): void {
    const list = this.#events.get(server) ?? [];
    list.push(event);
    if (list.length > KEPT_EVENTS) list.splice(0, list.length - KEPT_EVENTS);
    this.#events.set(server, list);
  }

  /** The events of `server`, oldest first. */
  of(server: string): readonly ToolServerEvent[] {
    return this.#events.get(server) ?? [];
  }
}
