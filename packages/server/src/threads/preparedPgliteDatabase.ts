import type { SqlDatabase, SqlSession } from './sqlDatabase.js';

/**
 * The part of a PGlite instance ({@link https://pglite.dev/docs/api | `PGlite`}) that
 * {@link preparedPgliteDatabase} uses: its wire-protocol entry, its locks and its type conversions.
 */
export interface PgliteProtocolLike {
  execProtocol(message: Uint8Array, options?: { syncToFs?: boolean }): Promise<{ messages: unknown[] }>;
  runExclusive<T>(work: () => Promise<T>): Promise<T>;
  isInTransaction(): boolean;
  transaction<T>(work: (tx: unknown) => Promise<T>): Promise<T>;
  readonly parsers: Record<number | string, (value: string, typeId?: number) => unknown>;
  readonly serializers: Record<number | string, (value: unknown) => string>;
  /** Resolves once the instance can run statements (`new PGlite()` starts it in the background). */
  readonly waitReady?: Promise<void>;
}

/** What {@link preparedPgliteDatabase} needs of the `@electric-sql/pglite` module: its protocol messages and its result parser. */
export interface PgliteModuleLike {
  readonly protocol: {
    readonly serialize: {
      parse(options: { name: string; text: string }): Uint8Array;
      describe(options: { type: 'S' | 'P'; name?: string }): Uint8Array;
      bind(options: { statement: string; values: (string | null)[] }): Uint8Array;
      execute(options?: object): Uint8Array;
      sync(): Uint8Array;
    };
  };
  readonly parse: {
    parseResults(messages: never[], parsers: never): { rows: unknown[] }[];
    parseDescribeStatementResults(messages: never[]): number[];
  };
}

/** Whether `db` is a PGlite instance (rather than a wrapper of one that offers only `query` and `transaction`). */
export function hasPgliteProtocol(db: object): db is PgliteProtocolLike {
  const candidate = db as Partial<Record<keyof PgliteProtocolLike, unknown>>;
  return (
    typeof candidate.execProtocol === 'function' &&
    typeof candidate.runExclusive === 'function' &&
    typeof candidate.isInTransaction === 'function' &&
    typeof candidate.parsers === 'object' &&
    typeof candidate.serializers === 'object'
  );
}

/** A statement prepared on one PGlite instance: its name and its parameters' type ids. */
interface Prepared {
  readonly name: string;
  readonly parameterTypes: readonly number[];
}

/** The statements prepared through each PGlite instance (or wrapper of one), by text: two stores on one instance share them. */
const preparedOn = new WeakMap<object, Map<string, Prepared>>();

/**
 * The start of every name this module gives: unique to this copy of the module, so two wrappers of
 * one instance, or two copies of this package in one process, never prepare under the same name.
 */
const NAME_PREFIX = `chatwire_${Math.random().toString(36).slice(2, 8)}_`;
let named = 0;

/** The most statement texts prepared per instance (the stores send a few dozen fixed texts). */
const MAX_PREPARED = 200;

/** SQLSTATE of a prepared statement the instance does not have (deallocated by someone else). */
const NO_SUCH_STATEMENT = '26000';

const concat = (parts: readonly Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((size, part) => size + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
};

/**
 * The queries and transactions of a {@link SqlDatabase} on a PGlite instance whose statements are prepared once (named, as
 * `preparedStatements` does on PostgreSQL): each next use sends one message batch (bind, describe,
 * execute, sync) in one call instead of `query`'s six, and PostgreSQL reuses its plan instead of
 * planning the statement again. Measured on the thread store's append (a statement of three
 * inserts): about a third of `query`'s CPU (docs/threads.md). A statement outside a transaction runs
 * under PGlite's query lock as one batch, so it never lands inside another caller's open
 * transaction (it waits for that transaction when one is open); `transaction` is PGlite's own.
 */
export function preparedPgliteDatabase(pg: PgliteProtocolLike, pglite: PgliteModuleLike): Omit<SqlDatabase, 'close'> {
  const { serialize } = pglite.protocol;
  let statements = preparedOn.get(pg);
  if (!statements) {
    statements = new Map();
    preparedOn.set(pg, statements);
  }
  const known = statements;
  /** `text` prepared on the instance (once; the unnamed statement, parsed again each use, past {@link MAX_PREPARED}). */
  const prepare = async (text: string): Promise<Prepared> => {
    const found = known.get(text);
    if (found) return found;
    const name = known.size < MAX_PREPARED ? `${NAME_PREFIX}${++named}` : '';
    const { messages } = await pg.execProtocol(
      concat([serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync()]),
      { syncToFs: false },
    );
    const prepared = { name, parameterTypes: pglite.parse.parseDescribeStatementResults(messages as never[]) };
    if (name) known.set(text, prepared);
    return prepared;
  };
  /** Runs `text` as its prepared statement; the caller holds PGlite's locks. */
  const run = async <Row>(text: string, params: readonly unknown[] = [], syncToFs: boolean, retried = false): Promise<{ rows: Row[] }> => {
    const prepared = await prepare(text);
    // Serialized as PGlite's `query` serializes them: by the parameter's type, as PostgreSQL inferred it.
    const values = params.map((value, index) => {
      if (value === null || value === undefined) return null;
      const serializer = pg.serializers[prepared.parameterTypes[index] ?? 0];
      if (serializer) return serializer(value);
      return typeof value === 'object' ? JSON.stringify(value) : String(value as string | number | boolean | bigint);
    });
    try {
      const { messages } = await pg.execProtocol(
        concat([
          serialize.bind({ statement: prepared.name, values }),
          serialize.describe({ type: 'P' }),
          serialize.execute({}),
          serialize.sync(),
        ]),
        { syncToFs },
      );
      return pglite.parse.parseResults(messages as never[], pg.parsers as never)[0] as { rows: Row[] };
    } catch (error) {
      if (retried || (error as { code?: unknown })?.code !== NO_SUCH_STATEMENT) throw error;
      // Deallocated meanwhile (`DEALLOCATE ALL` on the instance): prepared again, once.
      known.delete(text);
      return run(text, params, syncToFs, true);
    }
  };
  const inTransaction: SqlSession = { query: (text, params) => pg.runExclusive(() => run(text, params, false)) };
  return {
    query: async <Row>(text: string, params?: readonly unknown[]) => {
      // `query` waits for a PGlite that is still starting; `execProtocol` does not.
      await pg.waitReady;
      // One batch under the query lock, committed on its own, unless a transaction is open: then after it, in one of ours.
      const alone = await pg.runExclusive(async () => (pg.isInTransaction() ? undefined : await run<Row>(text, params, true)));
      return alone ?? pg.transaction(() => pg.runExclusive(() => run<Row>(text, params, false)));
    },
    transaction: (work) => pg.transaction(() => work(inTransaction)),
  };
}
