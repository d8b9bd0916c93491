/**
 * The owner key of a chat's grants ("allow for this chat"): the thread and the user who made them,
 * so a grant of one user never covers another's call, whatever thread id the other uses. Without a
 * user (no `userOf`, or it names nobody) the key is the thread id alone: whoever knows the id shares
 * its grants. The two forms never collide (`thread:` and `thread@`), and the user's part is
 * percent-encoded, so no user name or thread id can produce another pair's key.
 */
export function threadOwner(threadId: string, user: string | undefined): string {
  return user === undefined || user === '' ? `thread:${threadId}` : `thread@${encodeURIComponent(user)}:${threadId}`;
}

/** The owner key of a user's "always" grants. */
export const userOwner = (user: string): string => `user:${user}`;
