import type { Message } from '@ag-ui/core';
import canonicalize from 'canonicalize';
import { defaultTitle } from './threadTitle.js';
import { summarizeBranch } from '../history/branchSummary.js';
import { ThreadStoreError, type StoredMessage, type ThreadStore } from './threadStore.js';

/** A chat request's turn, placed in its thread: the branch it continues and what it adds. */
export interface PlacedTurn {
  readonly ok: true;
  /** The stored message the new chain continues (`null`: a new root). */
  readonly branchPoint: string | null;
  /** The request's new messages, stored under `branchPoint` by {@link commitTurn}. */
  readonly added: readonly Message[];
  /** What the model reads: the stored branch to `branchPoint`, then the request's new messages. */
  readonly messages: readonly Message[];
  /** Where the run's own messages go: the last new message, else the branch point. */
  readonly runParentId: string | null;
}

/** A chat request the thread refuses (the HTTP status, the code, a message naming what disagrees). */
export interface RefusedTurn {
  readonly ok: false;
  readonly status: number;
  readonly code: string;
  readonly error: string;
}

/** Roles of messages the client writes itself (new ones are stored); assistant messages come from the server. */
const CLIENT_ROLES = new Set(['user', 'system', 'developer', 'tool']);
/** The client's own record of a run (reasoning shown, activity): neither compared nor stored. */
const CLIENT_SIDE_ROLES = new Set(['reasoning', 'activity']);

const refused = (status: number, code: string, error: string): RefusedTurn => ({ ok: false, status, code, error });

/**
 * Whether the request's copy of a message says what the stored one says: the role, a user's
 * content, a tool message's call and content; an assistant message's text and calls may stop short
 * of the stored ones (a client that stopped the run kept what had arrived). Metadata and arguments
 * are not compared: the model reads the stored copy either way.
 */
function sameMessage(copy: Message, stored: Message): boolean {
  if (copy.role !== stored.role) return false;
  if (copy.role === 'assistant' && stored.role === 'assistant') {
    const copyCalls = (copy.toolCalls ?? []).map((call) => call.id);
    const storedCalls = (stored.toolCalls ?? []).map((call) => call.id);
    return (stored.content ?? '').startsWith(copy.content ?? '') && copyCalls.every((id, index) => storedCalls[index] === id);
  }
  if (copy.role === 'tool' && stored.role === 'tool') return copy.toolCallId === stored.toolCallId && copy.content === stored.content;
  return canonicalize((copy as { content?: unknown }).content ?? null) === canonicalize((stored as { content?: unknown }).content ?? null);
}

/**
 * Places a chat request in its thread. The request's messages that the thread has are its copy of
 * the branch: they must all lie on one stored branch and match what was stored (else 409
 * `history-conflict`); the deepest of them is the branch point. The messages after it are new:
 * user (or system) messages, and tool results for calls of that branch still open; an assistant
 * message or a result the thread does not know names a branch point that does not exist (409
 * `unknown-branch-point`). Another owner's thread answers 404 `unknown-thread`. Nothing is written
 * here: {@link commitTurn} stores the new messages once the request is accepted. The model reads the
 * stored branch, not the request's copy.
 */
export async function placeTurn(
  store: ThreadStore,
  owner: string,
  threadId: string,
  request: readonly Message[],
): Promise<PlacedTurn | RefusedTurn> {
  const messages = request.filter((message) => !CLIENT_SIDE_ROLES.has(message.role));
  const lookup = await store.lookup(
    owner,
    threadId,
    messages.map((message) => message.id),
  );
  if (lookup.exists && !lookup.owned) return refused(404, 'unknown-thread', `There is no thread '${threadId}'.`);
  let branchPoint: StoredMessage | undefined;
  let lastStored = -1;
  messages.forEach((message, index) => {
    const stored = lookup.found.get(message.id);
    if (!stored) return;
    lastStored = index;
    if (!branchPoint || stored.seq > branchPoint.seq) branchPoint = stored;
  });
  const branch = branchPoint ? await store.path(owner, threadId, branchPoint.message.id) : [];
  // A request that carries only the stored leaf (and what follows it) needs no index of the branch.
  let onBranch: Set<string> | undefined;
  const isOnBranch = (id: string) => id === branchPoint?.message.id || (onBranch ??= new Set(branch.map((message) => message.id))).has(id);
  for (const [index, message] of messages.entries()) {
    const stored = lookup.found.get(message.id);
    if (!stored) {
      if (index < lastStored) {
        return refused(
          409,
          'history-conflict',
          `Message '${message.id}' of the request is not on the stored branch it sits in (thread '${threadId}').`,
        );
      }
      continue;
    }
    if (!isOnBranch(message.id)) {
      return refused(
        409,
        'history-conflict',
        `Message '${message.id}' is on another branch of thread '${threadId}' than the request's other messages.`,
      );
    }
    if (!sameMessage(message, stored.message)) {
      return refused(
        409,
        'history-conflict',
        `Message '${message.id}' differs from the one thread '${threadId}' stored; reload the thread.`,
      );
    }
  }
  const added = messages.slice(lastStored + 1);
  // The calls the branch leaves open, from its summary (kept per stored leaf): no walk of the branch.
  const open = new Set(summarizeBranch(branch).openCalls.keys());
  for (const message of added) {
    if (!CLIENT_ROLES.has(message.role)) {
      return refused(
        409,
        'unknown-branch-point',
        `Message '${message.id}' (${message.role}) is not in thread '${threadId}': the request continues from a message the thread does not have.`,
      );
    }
    if (message.role === 'tool' && !open.delete(message.toolCallId)) {
      return refused(
        409,
        'unknown-branch-point',
        `Tool message '${message.id}' answers call '${message.toolCallId}', which the thread's branch does not have open.`,
      );
    }
  }
  const parentId = branchPoint ? branchPoint.message.id : null;
  return { ok: true, branchPoint: parentId, added, messages: [...branch, ...added], runParentId: added.at(-1)?.id ?? parentId };
}

/**
 * Stores a placed turn's new messages under its branch point, in one append (the thread is created
 * on its first run, titled after its first user message). Resolves to a refusal when the thread
 * changed meanwhile (deleted, or the same message sent twice at once); throws when the store fails.
 */
export async function commitTurn(store: ThreadStore, owner: string, threadId: string, turn: PlacedTurn): Promise<RefusedTurn | undefined> {
  try {
    await store.append(owner, threadId, { parentId: turn.branchPoint, messages: turn.added, title: defaultTitle(turn.messages) });
    return undefined;
  } catch (error) {
    if (!(error instanceof ThreadStoreError) || error.code === 'threads-unavailable') throw error;
    return refused(error.code === 'unknown-thread' ? 404 : 409, error.code, error.message);
  }
}
