import type { AssistantMessage, Message, ToolCall } from '@ag-ui/core';
import { DISCOVERY_TOOL_NAME } from '@chatwire/core';
import { readResultMetadata } from '@chatwire/core/wire';
import { isStoredMessage } from './storedMessages.js';

/*
 * A summary per stored branch, so a request that continues a long thread does not walk it again
 * for each thing it reads (its open calls, its last assistant message, whether discovery is in it;
 * tokens.ts keeps its token total beside it). A branch is the array a thread store's `path` handed
 * out: frozen stored messages, root first. Its summary is made once, from the summary of the branch
 * it continues when that one is known (the turn before: a few new messages), else by one walk (a
 * thread this process never read: SQL stores read on another instance, a restart), and kept by the
 * branch's leaf message.
 *
 * Anything holding a history finds the summary of the stored branch it starts with
 * ({@link storedPrefixOf}): the history's messages up to the leaf must be the branch's, the same
 * objects in the same places (compared one by one, which costs a pointer comparison per message, not
 * a walk that reads them). A history the server changed inside the branch (a call replaced by its
 * approved edit, a "no result" answer inserted) therefore has no stored prefix there, and is read
 * whole, as before.
 *
 * What is summarised is trusted as the stored branch is: every message of it was checked when it was
 * stored (its results verified, its calls unique) or is the server's own output.
 */

/** What a request reads of a stored branch, without walking it. */
export interface BranchSummary {
  /** Messages in the branch. */
  readonly length: number;
  /** The calls of the branch that have no result on it, by id, in call order. */
  readonly openCalls: ReadonlyMap<string, ToolCall>;
  /** The branch's last assistant message, if it has one. */
  readonly lastAssistant: AssistantMessage | undefined;
  /** Whether the branch holds a discovery exchange (a discovery call, or a result marked `undiscovered`). */
  readonly discovery: boolean;
  /** Whether a result of the branch carries the arguments its call was approved with (the model reads them as the call's: the review replaces the call). */
  readonly editedResults: boolean;
  /**
   * The summary this one continues (a prefix of this branch), until whatever is made from it lazily
   * (the token total, see tokens.ts) has been carried over: then `undefined`, so a thread's old
   * summaries are not kept alive by the new ones.
   */
  base: BranchSummary | undefined;
}

interface Entry {
  /** The branch, held weakly: the store (or the request) that has it keeps it alive. */
  readonly branch: WeakRef<readonly Message[]>;
  readonly summary: BranchSummary;
}

/** Summaries by the leaf message of their branch. */
const byLeaf = new WeakMap<Message, Entry>();

/**
 * The branches summarised last (across threads), held so the next turn of each finds its summary to
 * continue: a SQL store reads a new array per request, which nothing else keeps until the next one.
 */
const recent: (readonly Message[])[] = [];
const RECENT_BRANCHES = 32;

/** How far back from a branch's end the leaf of a known shorter branch is looked for (a turn adds a few messages). */
const LOOK_BACK = 64;

/** Counts what {@link summarizeBranch} did, for tests: summaries made by extending a known one, and by walking the whole branch. */
export const branchSummaryStats = { extended: 0, walked: 0, messagesRead: 0 };

/** Whether `messages` starts with `branch` (the same objects in the same places). */
function startsWith(messages: readonly Message[], branch: readonly Message[]): boolean {
  if (messages === branch) return true;
  if (messages.length < branch.length) return false;
  for (let i = branch.length - 1; i >= 0; i--) if (messages[i] !== branch[i]) return false;
  return true;
}

/** The known summary of `messages[0..index]` (inclusive) when that prefix is the branch it was made for. */
function knownAt(messages: readonly Message[], index: number): BranchSummary | undefined {
  const leaf = messages[index];
  const entry = leaf === undefined || !isStoredMessage(leaf) ? undefined : byLeaf.get(leaf);
  if (!entry || entry.summary.length !== index + 1) return undefined;
  const branch = entry.branch.deref();
  return branch !== undefined && startsWith(messages, branch) ? entry.summary : undefined;
}

/** `base` (the summary of `branch[0..base.length)`, or nothing) carried on over the rest of `branch`. */
function extend(base: BranchSummary | undefined, branch: readonly Message[]): BranchSummary {
  const open = new Map(base?.openCalls);
  let lastAssistant = base?.lastAssistant;
  let discovery = base?.discovery ?? false;
  let editedResults = base?.editedResults ?? false;
  for (let i = base?.length ?? 0; i < branch.length; i++) {
    const message = branch[i] as Message;
    if (message.role === 'assistant') {
      lastAssistant = message;
      for (const call of message.toolCalls ?? []) {
        open.set(call.id, call);
        if (call.function.name === DISCOVERY_TOOL_NAME) discovery = true;
      }
    } else if (message.role === 'tool') {
      open.delete(message.toolCallId);
      const chatwire: unknown = message.metadata?.['chatwire'];
      if (chatwire && typeof chatwire === 'object' && (chatwire as { undiscovered?: unknown }).undiscovered === true) discovery = true;
      if (chatwire !== undefined && readResultMetadata(message.metadata).editedArguments !== undefined) editedResults = true;
    }
  }
  branchSummaryStats.messagesRead += branch.length - (base?.length ?? 0);
  return { length: branch.length, openCalls: open, lastAssistant, discovery, editedResults, base };
}

/**
 * The summary of a branch a thread store handed out (see the file's comment): the known one, or made
 * now from the known summary of a shorter branch it continues, else by one walk, and kept when every
 * message of the branch is a stored one (a store of the app's own that does not mark its messages
 * gets a summary made by one walk each time).
 */
export function summarizeBranch(branch: readonly Message[]): BranchSummary {
  const last = branch.length - 1;
  const leaf = branch[last];
  if (leaf === undefined || !isStoredMessage(leaf)) return extend(undefined, branch);
  const known = knownAt(branch, last);
  if (known) return known;
  let base: BranchSummary | undefined;
  for (let i = last - 1; i >= Math.max(0, last - LOOK_BACK) && !base; i--) base = knownAt(branch, i);
  const summary = extend(base, branch);
  // Only stored messages are kept summarised (the base's were checked when it was made).
  for (let i = base?.length ?? 0; i < last; i++) if (!isStoredMessage(branch[i])) return summary;
  if (base) branchSummaryStats.extended++;
  else branchSummaryStats.walked++;
  byLeaf.set(leaf, { branch: new WeakRef(branch), summary });
  recent.push(branch);
  if (recent.length > RECENT_BRANCHES) recent.shift();
  return summary;
}

/**
 * The summary of the longest known stored branch `messages` starts with (see the file's comment):
 * its leaf is looked for among the last messages (a run adds a few after it), and the messages
 * before it are compared with the branch's. `undefined` when there is none.
 */
export function storedPrefixOf(messages: readonly Message[]): BranchSummary | undefined {
  for (let i = messages.length - 1; i >= Math.max(0, messages.length - 1 - LOOK_BACK); i--) {
    const known = knownAt(messages, i);
    if (known) return known;
  }
  return undefined;
}
