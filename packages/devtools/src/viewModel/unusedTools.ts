import { DISCOVERY_TOOL_NAME, type ChatMessage, type TurnRecord } from '@chatwire/core';
import { discoveryOrigins } from './tools.js';
import type { PartialToolCatalogEntry } from './tools.js';

/**
 * Unused tools: discovered tools the conversation has not called for some turns, and what sending
 * their definitions has cost since: the figures a policy that unloads tools would decide on.
 */

/** A discovered tool, when it was last called, and what it has cost since. */
export interface DiscoveredToolUse {
  readonly name: string;
  /** 1-based turn that discovered it. */
  readonly discoveredIn: number;
  /** 1-based turn of its last call; undefined when it was never called. */
  readonly lastCalledIn: number | undefined;
  /** Turns since its last call (or since its discovery, when never called), counting up to the latest turn. */
  readonly turnsSince: number;
  /** Model calls after that turn that were sent its definition. */
  readonly requestsSince: number;
  /** Tokens of its definition (the catalog's count); undefined without a catalog. */
  readonly tokensPerRequest: number | undefined;
  /** `requestsSince × tokensPerRequest`: what carrying it unused has cost. */
  readonly tokensSince: number | undefined;
  /** Not called for at least `turns` turns. */
  readonly unused: boolean;
}

/**
 * Every discovered tool with its use, the unused ones (not called for `turns` turns or more) first,
 * dearest first. A call refused because the tool was not loaded yet is not a use; turns are counted
 * from the messages (user messages), requests from the turns' model-call records.
 */
export function buildToolUse(options: {
  readonly messages: readonly ChatMessage[];
  readonly turns: readonly TurnRecord[];
  readonly catalog: readonly PartialToolCatalogEntry[] | undefined;
  /** Turns without a call that make a discovered tool unused. */
  readonly unusedAfter: number;
}): DiscoveredToolUse[] {
  const { messages, turns, catalog, unusedAfter } = options;
  const turnOfMessage: number[] = [];
  const turnOfUser = new Map<string, number>();
  let turn = 0;
  for (const message of messages) {
    if (message.role === 'user') turnOfUser.set(message.id, ++turn);
    turnOfMessage.push(turn);
  }
  const latest = turn;
  const lastCall = new Map<string, number>();
  messages.forEach((message, index) => {
    for (const part of message.parts) {
      if (part.type !== 'tool-call' || part.toolName === DISCOVERY_TOOL_NAME) continue;
      const chatwire = part.result?.metadata?.['chatwire'] as { undiscovered?: unknown } | undefined;
      if (chatwire?.undiscovered === true) continue;
      lastCall.set(part.toolName, turnOfMessage[index] ?? 0);
    }
  });
  const tokens = new Map((catalog ?? []).map((entry) => [entry.name, entry.tokens]));
  const rows: DiscoveredToolUse[] = [];
  for (const [name, origin] of discoveryOrigins(messages)) {
    const lastCalledIn = lastCall.get(name);
    const since = Math.max(origin.turn, lastCalledIn ?? 0);
    let requestsSince = 0;
    for (const record of turns) {
      const recordTurn = turnOfUser.get(record.id);
      if (recordTurn === undefined || recordTurn <= since) continue;
      for (const call of record.modelCalls) if (call.toolsSent.includes(name)) requestsSince++;
    }
    const tokensPerRequest = tokens.get(name);
    const turnsSince = latest - since;
    rows.push({
      name,
      discoveredIn: origin.turn,
      lastCalledIn,
      turnsSince,
      requestsSince,
      tokensPerRequest,
      tokensSince: tokensPerRequest === undefined ? undefined : tokensPerRequest * requestsSince,
      unused: turnsSince >= unusedAfter,
    });
  }
  return rows.sort(
    (a, b) =>
      Number(b.unused) - Number(a.unused) ||
      (b.tokensSince ?? 0) - (a.tokensSince ?? 0) ||
      b.turnsSince - a.turnsSince ||
      (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
}
