import type { BranchSummary } from './branchSummary.js';
import type { CallSigner } from '../binding/signing.js';

/*
 * Histories a review verified, so the next turn of a chat that sends its whole history (any AG-UI
 * client, or an app without a thread store) reviews only what follows them.
 *
 * A verified history is a known branch (`history/branchSummary.ts`) of a request's checked messages:
 * each message is the one deep-frozen object that exact text parsed to (`http/knownMessages.ts`
 * compares every byte of it), so the same objects in the same places are the same bytes, and the
 * summary is keyed by those objects, never by ids. Edited content, arguments or signature, a
 * reordered, inserted or left-out message: each makes other objects, or puts them elsewhere, and
 * the history no longer starts with the verified branch there, so it is reviewed as before.
 *
 * What a review concluded depends on more than the messages: the thread (a result's signature binds
 * it), the key (this signer), and which tools' results are the server's own (verified) or a browser
 * tool's (redacted, not verified). So a verdict is kept per signer, for one owner and thread, with
 * the kind of every tool whose results the branch holds; a request of another thread, owner, or tool
 * set finds none and is reviewed whole. Only a review that changed nothing in the history (no
 * redacted failure, no approved edit) and a branch whose calls and results are in order are kept.
 * Bounded: a few verdicts per branch, and the branches themselves live as long as the cache of
 * checked messages holds them (bounded by their text).
 */

/** Verdicts kept per branch (an owner and thread each): a history shared by more threads is reviewed again in the others. */
const VERDICTS_PER_BRANCH = 8;

/**
 * How many verdicts were recorded and how many branches were taken as verified, since the process
 * started: tests count work with it, not time.
 */
export const verifiedHistoryStats = { recorded: 0, reused: 0 };

/** The kind of each tool whose results `summary` holds, as `verifiesResultsOf` says now ('1' verified, '0' not). */
function kindsOf(summary: BranchSummary, verifiesResultsOf: (toolName: string) => boolean): string {
  let kinds = '';
  for (const name of summary.resultTools) kinds += verifiesResultsOf(name) ? '1' : '0';
  return kinds;
}

/** The histories one signer's reviews verified (see the file's comment). */
export class VerifiedHistories {
  /** Per branch: the verdicts, by owner and thread, each with the tool kinds it was reached with. */
  readonly #verdicts = new WeakMap<BranchSummary, Map<string, string>>();

  /** Whether a review with this signer verified `summary`'s branch for this owner and thread, with the same tool kinds. */
  verified(summary: BranchSummary, owner: string, threadId: string, verifiesResultsOf: (toolName: string) => boolean): boolean {
    const kinds = this.#verdicts.get(summary)?.get(JSON.stringify([owner, threadId]));
    if (kinds === undefined || kinds !== kindsOf(summary, verifiesResultsOf)) return false;
    verifiedHistoryStats.reused++;
    return true;
  }

  /** Records that a review verified `summary`'s branch (its calls in order, nothing in it changed by the review). */
  record(summary: BranchSummary, owner: string, threadId: string, verifiesResultsOf: (toolName: string) => boolean): void {
    if (!summary.ordered || summary.editedResults) return;
    let verdicts = this.#verdicts.get(summary);
    if (!verdicts) {
      verdicts = new Map();
      this.#verdicts.set(summary, verdicts);
    }
    const key = JSON.stringify([owner, threadId]);
    verdicts.delete(key);
    verdicts.set(key, kindsOf(summary, verifiesResultsOf));
    for (const oldest of verdicts.keys()) {
      if (verdicts.size <= VERDICTS_PER_BRANCH) break;
      verdicts.delete(oldest);
    }
    verifiedHistoryStats.recorded++;
  }
}

const bySigner = new WeakMap<CallSigner, VerifiedHistories>();

/** The verified histories of `signer` (one per handler: the key they were verified with). */
export function verifiedHistoriesOf(signer: CallSigner): VerifiedHistories {
  let histories = bySigner.get(signer);
  if (!histories) {
    histories = new VerifiedHistories();
    bySigner.set(signer, histories);
  }
  return histories;
}
