import type { BranchPoint, StoredMessage } from './threadStore.js';

/** The messages from the root to `leafId`, oldest first, following parent ids. */
export function pathTo(leafId: string | null, get: (id: string) => StoredMessage | undefined): StoredMessage[] {
  const path: StoredMessage[] = [];
  for (let id = leafId; id !== null;) {
    const stored = get(id);
    if (!stored) break;
    path.push(stored);
    id = stored.parentId;
  }
  return path.reverse();
}

/** The branch points of a path: each message whose parent has more than one child. */
export function branchPointsOf(path: readonly StoredMessage[], childrenOf: (parentId: string | null) => readonly string[]): BranchPoint[] {
  const points: BranchPoint[] = [];
  for (const { message, parentId } of path) {
    const siblings = childrenOf(parentId);
    if (siblings.length > 1) points.push({ messageId: message.id, siblings: [...siblings], index: siblings.indexOf(message.id) });
  }
  return points;
}

/** The newest message under `messageId` (itself included), which is a leaf: children are always newer than their parent. */
export function newestLeaf(messageId: string, childrenOf: (id: string) => readonly string[], seqOf: (id: string) => number): string {
  let newest = messageId;
  const stack = [messageId];
  while (stack.length > 0) {
    const id = stack.pop() as string;
    if (seqOf(id) > seqOf(newest)) newest = id;
    stack.push(...childrenOf(id));
  }
  return newest;
}
