import type { AssistantMessage, Message, ToolCall } from '@ag-ui/core';
import { DISCOVERY_TOOL_NAME } from '@chatwire/core';
import { readResultMetadata } from '@chatwire/core/wire';
import { isCheckedMessage } from '../http/knownMessages.js';
import { isStoredMessage } from './storedMessages.js';

/*
 * A summary per known branch, so a request that continues a long history does not walk it again
 * for each thing it reads (its calls and the ones left open, its last assistant message, whether
 * discovery is in it; tokens.ts keeps its token total beside it). A branch is an array of shared
 * messages, root first, each deep-frozen: the array a thread store's `path` handed out (stored
 * messages), or the messages of a request body the handler checked and keeps for the next turn's
 * request (`http/knownMessages.ts`: each is the one object that exact text parsed to). Its summary
 * is made once, from the summary of the branch it continues when that one is known (the turn
 * before: a few new messages), else by one walk (a thread this process never read: SQL stores read
 * on another instance, a restart; a history this process never saw), found by the branch's leaf
 * message and kept as long as the branch is, no longer.
 *
 * Anything holding a history finds the summary of the known branch it starts with
 * ({@link knownPrefixOf}): the history's messages up to the leaf must be the branch's, the same
 * objects in the same places (compared one by one, which costs a pointer comparison per message, not
 * a walk that reads them). A history the server changed inside the branch (a call replaced by its
 * approved edit, a "no result" answer inserted) therefore has no known prefix there, and is read
 * whole, as before.
 *
 * A summary says what a branch holds, not whether it may be trusted: a stored branch is (every
 * message of it was checked when it was stored, or is the server's own output: {@link storedPrefixOf});
 * a branch of a request's messages only once a review verified it, in one thread (see
 * `verifiedHistories.ts`).
 */

/** What a request reads of a known branch, without walking it. */
export interface BranchSummary {
  /** Messages in the branch. */
  readonly length: number;
  /** The calls of the branch that have no result on it, by id, in call order. */
  readonly openCalls: ReadonlyMap<string, ToolCall>;
  /** Every call of the branch, answered or not, by id (the first, when two share one: then `ordered` is false). */
  readonly calls: ReadonlyMap<string, ToolCall>;
  /** The names of the tools whose results the branch holds (a review verifies results by their tool's kind). */
  readonly resultTools: ReadonlySet<string>;
  /**
   * Whether every call id of the branch is unique and every result answers a call made before it, once:
   * what a review requires of a history, and so of any branch a review may take as reviewed.
   */
  readonly ordered: boolean;
  /** Whether every message of the branch came from a thread store (which vouches for it). */
  readonly stored: boolean;
  /** The branch's last assistant message, if it has one. */
  readonly lastAssistant: AssistantMessage | undefined;
  /** Whether the branch holds a discovery exchange (a discovery call, or a result marked `undiscovered`). */
  readonly discovery: boolean;
  /** Whether a result of the branch carries the arguments its call was approved with (the model reads them as the call's: the review replaces the call). */
  readonly editedResults: boolean;
  /**
   * The summary this one continues (a prefix of this branch), until whatever is made from it lazily
   * (the token total, see tokens.ts) has been carried over: then `undefined`, so a thread's old
   * summaries are not kept alive by the new ones. It is always one whose own `base` is `undefined`
   * (carried over, or made by a walk): the summaries between are skipped, never chained.
   */
  base: BranchSummary | undefined;
}

/**
 * The branch of each leaf message, held weakly: the store (or the cache of checked messages) that has
 * it keeps it alive. A leaf can outlive its branch (the cache keeps a message by its text, and lets
 * the run it came in go first), so the summary is never kept by the leaf: a summary of every branch a
 * request body once had would then stay as long as its last message's text is cached (each a copy of
 * the branch's calls: a body of 15,000 calls, sent again with a new last message each time, kept
 * about 1 MB a request).
 */
const byLeaf = new WeakMap<Message, WeakRef<readonly Message[]>>();

/** Summaries by their branch: a summary lives as long as its branch, and no longer. */
const byBranch = new WeakMap<readonly Message[], BranchSummary>();

/**
 * The stored branches summarised last (across threads), held so the next turn of each finds its
 * summary to continue: a SQL store reads a new array per request, which nothing else keeps until the
 * next one. (The branches of request bodies are held by the cache of checked messages instead,
 * which bounds them by their text.)
 */
const recent: (readonly Message[])[] = [];
const RECENT_BRANCHES = 32;

/** Messages a branch may be made of: a thread store's or a checked request's, both deep-frozen and shared. */
const isShared = (message: unknown): boolean => isStoredMessage(message) || isCheckedMessage(message);

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
  const branch = leaf === undefined || !isShared(leaf) ? undefined : byLeaf.get(leaf)?.deref();
  if (branch === undefined) return undefined;
  const summary = byBranch.get(branch);
  return summary && summary.length === index + 1 && startsWith(messages, branch) ? summary : undefined;
}

/**
 * `base` (the summary of `branch[0..base.length)`, or nothing) carried on over the rest of `branch`.
 * Pure: with no base it is the plain version, {@link summarizeBranchPlain}.
 */
function extend(base: BranchSummary | undefined, branch: readonly Message[]): BranchSummary {
  const open = new Map(base?.openCalls);
  const calls = new Map(base?.calls);
  const resultTools = new Set(base?.resultTools);
  let lastAssistant = base?.lastAssistant;
  let discovery = base?.discovery ?? false;
  let editedResults = base?.editedResults ?? false;
  let ordered = base?.ordered ?? true;
  let stored = base?.stored ?? true;
  for (let i = base?.length ?? 0; i < branch.length; i++) {
    const message = branch[i] as Message;
    if (!isStoredMessage(message)) stored = false;
    if (message.role === 'assistant') {
      lastAssistant = message;
      for (const call of message.toolCalls ?? []) {
        if (calls.has(call.id)) ordered = false;
        else calls.set(call.id, call);
        open.set(call.id, call);
        if (call.function.name === DISCOVERY_TOOL_NAME) discovery = true;
      }
    } else if (message.role === 'tool') {
      const call = open.get(message.toolCallId);
      if (call) resultTools.add(call.function.name);
      else ordered = false;
      open.delete(message.toolCallId);
      const chatwire: unknown = message.metadata?.['chatwire'];
      if (chatwire && typeof chatwire === 'object' && (chatwire as { undiscovered?: unknown }).undiscovered === true) discovery = true;
      if (chatwire !== undefined && readResultMetadata(message.metadata).editedArguments !== undefined) editedResults = true;
    }
  }
  // Continued from the first summary back that has carried over (or that nothing was made from): a
  // summary holds at most one other, so a run of turns nothing counted (refused requests) is not a chain of copies.
  let from = base;
  while (from?.base !== undefined) from = from.base;
  return {
    length: branch.length,
    openCalls: open,
    calls,
    resultTools,
    ordered,
    stored,
    lastAssistant,
    discovery,
    editedResults,
    base: from,
  };
}

/**
 * The summary of a branch (see the file's comment): the known one, or made now from the known
 * summary of a shorter branch it continues, else by one walk, and kept when every message of the
 * branch is a shared one (a store of the app's own that does not mark its messages gets a summary
 * made by one walk each time). A stored branch is held among the last few summarised, so the next
 * turn finds it; `hold: false` leaves holding it to the caller (the cache of checked messages holds
 * the branches of request bodies it keeps).
 */
export function summarizeBranch(branch: readonly Message[], options: { readonly hold?: boolean } = {}): BranchSummary {
  const last = branch.length - 1;
  const leaf = branch[last];
  if (leaf === undefined || !isShared(leaf)) {
    branchSummaryStats.messagesRead += branch.length;
    return extend(undefined, branch);
  }
  const known = knownAt(branch, last);
  if (known) return known;
  let base: BranchSummary | undefined;
  for (let i = last - 1; i >= Math.max(0, last - LOOK_BACK) && !base; i--) base = knownAt(branch, i);
  const summary = extend(base, branch);
  branchSummaryStats.messagesRead += branch.length - (base?.length ?? 0);
  // Only shared messages are kept summarised (the base's were shared when it was made).
  for (let i = base?.length ?? 0; i < last; i++) if (!isShared(branch[i])) return summary;
  if (base) branchSummaryStats.extended++;
  else branchSummaryStats.walked++;
  byLeaf.set(leaf, new WeakRef(branch));
  byBranch.set(branch, summary);
  if (options.hold === false) return summary;
  recent.push(branch);
  if (recent.length > RECENT_BRANCHES) recent.shift();
  return summary;
}

/**
 * The plain version of {@link summarizeBranch}: one walk over the whole branch, nothing looked up,
 * kept or counted. The reference the summaries continued from a known branch are tested against
 * (`tests/threads/branchSummaryPlain.test.ts`: they must say the same of every branch).
 */
export const summarizeBranchPlain = (branch: readonly Message[]): BranchSummary => extend(undefined, branch);

/**
 * The summary of the longest known branch `messages` starts with that `accept` takes (see the file's
 * comment): its leaf is looked for among the last messages (a run adds a few after it), and the
 * messages before it are compared with the branch's. `undefined` when there is none.
 */
export function knownPrefixOf(
  messages: readonly Message[],
  accept: (summary: BranchSummary) => boolean = () => true,
): BranchSummary | undefined {
  for (let i = messages.length - 1; i >= Math.max(0, messages.length - 1 - LOOK_BACK); i--) {
    const known = knownAt(messages, i);
    if (known && accept(known)) return known;
  }
  return undefined;
}

/** The summaries of every known branch `messages` starts with whose leaf is among its last messages, longest first. */
export function knownPrefixesOf(messages: readonly Message[]): BranchSummary[] {
  const found: BranchSummary[] = [];
  for (let i = messages.length - 1; i >= Math.max(0, messages.length - 1 - LOOK_BACK); i--) {
    const known = knownAt(messages, i);
    if (known) found.push(known);
  }
  return found;
}

/** The summary of the longest stored branch (a thread store's, which vouches for it) `messages` starts with; `undefined` when there is none. */
export const storedPrefixOf = (messages: readonly Message[]): BranchSummary | undefined =>
  knownPrefixOf(messages, (summary) => summary.stored);
