import type { Message as WireMessage } from '@ag-ui/core';
import type { TurnRecord } from '../model/chatState.js';

// The threads endpoint's wire shapes, declared once: the client reads them (threadsClient.ts) and the
// server's thread stores and handler write them (@chatwire/server imports them from @chatwire/core/shared).

/** One thread in the list (`GET /api/threads`): dates are ISO 8601 strings. */
export interface ThreadSummary {
  readonly id: string;
  /** The app's title, or by default the start of the first user message. */
  readonly title: string;
  readonly createdAt: string;
  /** The last activity (a run, a rename, a branch switch). */
  readonly updatedAt: string;
}

/** One page of the thread list, newest activity first. */
export interface ThreadPage {
  readonly threads: readonly ThreadSummary[];
  /** Pass it as `cursor` for the next page; `null` on the last page. */
  readonly nextCursor: string | null;
}

/**
 * A message of the active branch that has siblings (an edited user message, a regenerated answer):
 * the ids of all of them in creation order, and this message's place among them.
 */
export interface BranchPoint {
  readonly messageId: string;
  readonly siblings: readonly string[];
  readonly index: number;
}

/** One thread as the server keeps it: its active branch, root to leaf, and the branch points on it. */
export interface ThreadDetail {
  readonly thread: ThreadSummary;
  /** The active branch as AG-UI messages (`fromWireMessages` turns them into UI messages). */
  readonly messages: readonly WireMessage[];
  readonly branches: readonly BranchPoint[];
  /**
   * The branch's turns with each model call's token accounting, as the chat streamed them (servers
   * from before it leave it out): `client.restoreTurns(detail.turns)` shows them again in devtools.
   */
  readonly turns?: readonly TurnRecord[];
}
