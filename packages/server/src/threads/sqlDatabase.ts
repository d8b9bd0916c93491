/** What the SQL thread store needs of a connection: PostgreSQL-style `$1` parameters, rows as objects. */
export interface SqlSession {
  query<Row>(text: string, params?: readonly unknown[]): Promise<{ rows: Row[] }>;
}

/** A database the SQL thread store runs on: queries, transactions, and closing what it opened. */
export interface SqlDatabase extends SqlSession {
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: SqlSession) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
