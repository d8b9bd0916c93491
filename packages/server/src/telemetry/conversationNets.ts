import type { ModelCallUsage } from '@chatwire/core';
import { addModelCall, type ConversationUsage } from '@chatwire/core/wire';

/** Conversations remembered at most (the least recently used is forgotten past it). */
const MAX_CONVERSATIONS = 1_000;

/**
 * Each conversation's discovery record (core's `addModelCall`, the one implementation devtools
 * shows too), folded over the model calls this process ran for it: `chatwire.conversation.net_tokens`.
 * In memory and bounded: a conversation that moved between instances or outlived a restart counts
 * from there.
 */
class ConversationNets {
  readonly #records = new Map<string, ConversationUsage>();

  add(threadId: string, usage: ModelCallUsage): ConversationUsage {
    const record = addModelCall(this.#records.get(threadId), usage);
    this.#records.delete(threadId);
    this.#records.set(threadId, record);
    if (this.#records.size > MAX_CONVERSATIONS) {
      const [oldest] = this.#records.keys();
      if (oldest !== undefined) this.#records.delete(oldest);
    }
    return record;
  }

  get(threadId: string): ConversationUsage | undefined {
    return this.#records.get(threadId);
  }
}

/** The process's conversation records. */
export const conversationNets = new ConversationNets();
