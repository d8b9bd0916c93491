/**
 * The SQL schema of the thread stores, as numbered migrations: PGlite and PostgreSQL run the same
 * statements (PGlite is PostgreSQL). A migration runs once per database, in order, inside one
 * transaction with the others of its start-up, recorded in `chatwire_migrations`.
 *
 * - `chatwire_threads`: one row per thread: its owner, title, times, and active leaf.
 * - `chatwire_messages`: the tree: each message (the AG-UI message as JSON, kept byte for byte)
 *   with its parent in the same thread (`NULL` for a root) and `seq`, the creation order.
 * - `chatwire_runs`: each run's end: outcome, usage, interrupts and approval decisions, the message it
 *   continued and its model calls' accounting (migration 4).
 *
 * Migration 2 adds `chatwire_messages.tokens`: each message's token count, counted as it is stored,
 * so a request that continues a stored branch does not tokenize it again. Rows stored before it keep
 * `NULL` there and are counted on their text when read, as before: nothing needs rewriting.
 *
 * Migration 3 adds `chatwire_grants`: the user's standing answers, by owner (the user's chat, or
 * the user), each with its signed record and its expiry (ms since the epoch, the server's clock). A
 * "this chat" grant references its thread, so deleting the thread deletes it in the same statement,
 * and one cannot be added to a thread that is gone.
 *
 * Migration 4 adds `chatwire_runs.parent_id` (the message the run continued) and `model_calls` (each
 * model call's accounting record): a reopened thread shows its turns' token figures again. Runs stored
 * before it keep `NULL` in both and show none.
 *
 * Migration 5 adds `chatwire_credentials`: what server packages keep for a user (the OAuth tokens and
 * sign-ins in progress of `@chatwire/mcp`, encrypted before they are written), by owner and key, with
 * an optional expiry (ms since the epoch).
 */
export const THREAD_MIGRATIONS: readonly (readonly string[])[] = [
  [
    `CREATE TABLE chatwire_threads (
      id text PRIMARY KEY,
      owner text NOT NULL,
      title text NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      active_leaf text
    )`,
    `CREATE INDEX chatwire_threads_by_activity ON chatwire_threads (owner, updated_at DESC, id DESC)`,
    `CREATE TABLE chatwire_messages (
      thread_id text NOT NULL REFERENCES chatwire_threads (id) ON DELETE CASCADE,
      id text NOT NULL,
      parent_id text,
      seq bigint GENERATED ALWAYS AS IDENTITY,
      role text NOT NULL,
      message json NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (thread_id, id),
      FOREIGN KEY (thread_id, parent_id) REFERENCES chatwire_messages (thread_id, id) ON DELETE CASCADE
    )`,
    `CREATE INDEX chatwire_messages_children ON chatwire_messages (thread_id, parent_id, seq)`,
    `CREATE TABLE chatwire_runs (
      thread_id text NOT NULL REFERENCES chatwire_threads (id) ON DELETE CASCADE,
      seq bigint GENERATED ALWAYS AS IDENTITY,
      run_id text NOT NULL,
      outcome text NOT NULL,
      usage json,
      details json,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (thread_id, seq)
    )`,
  ],
  [`ALTER TABLE chatwire_messages ADD COLUMN tokens json`],
  [
    `CREATE TABLE chatwire_grants (
      owner text NOT NULL,
      id text NOT NULL,
      thread_id text REFERENCES chatwire_threads (id) ON DELETE CASCADE,
      expires_at bigint NOT NULL,
      record json NOT NULL,
      PRIMARY KEY (owner, id)
    )`,
    `CREATE INDEX chatwire_grants_by_thread ON chatwire_grants (thread_id)`,
    `CREATE INDEX chatwire_grants_by_expiry ON chatwire_grants (expires_at)`,
  ],
  [`ALTER TABLE chatwire_runs ADD COLUMN parent_id text`, `ALTER TABLE chatwire_runs ADD COLUMN model_calls json`],
  [
    `CREATE TABLE chatwire_credentials (
      owner text NOT NULL,
      key text NOT NULL,
      expires_at bigint,
      value text NOT NULL,
      PRIMARY KEY (owner, key)
    )`,
    `CREATE INDEX chatwire_credentials_by_expiry ON chatwire_credentials (expires_at)`,
  ],
];

/** The advisory lock that keeps two instances from migrating one database at once. */
export const MIGRATION_LOCK = 7_402_127;

/** The first key of the advisory locks that serialise adds to one grants owner (the second is the owner's hash). */
export const GRANTS_LOCK = 7_402_128;
