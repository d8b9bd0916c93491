/**
 * Now, to the millisecond (what list cursors carry), and later than the owner's newest activity: a thread
 * touched now is first in the owner's list even when another thread's activity fell in the same millisecond
 * (or was already pushed past the clock by this rule). One index read (`chatwire_threads_by_activity`).
 */
export const NEXT_ACTIVITY = `greatest(date_trunc('milliseconds', clock_timestamp()),
  (SELECT max(newest.updated_at) FROM chatwire_threads newest WHERE newest.owner = chatwire_threads.owner) + interval '1 millisecond')`;

/** {@link NEXT_ACTIVITY} for a thread of the owner `$2` (in an upsert, where the thread's row may not exist yet). */
export const ACTIVITY_OF_OWNER = `greatest(date_trunc('milliseconds', clock_timestamp()),
  (SELECT max(newest.updated_at) FROM chatwire_threads newest WHERE newest.owner = $2) + interval '1 millisecond')`;
