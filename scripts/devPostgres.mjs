#!/usr/bin/env node
/**
 * `npm run postgres`: a throwaway PostgreSQL cluster for trying the demo on a real database, the
 * same one the tests start (initdb in a temporary folder, loopback only, trust authentication; as
 * root, run as the postgres user). Prints the DATABASE_URL to start the demo with; Ctrl+C stops
 * the server and deletes the cluster.
 *
 *   npm run postgres                      # port 5433, or PGPORT
 *   DATABASE_URL=<printed> npm start      # in another terminal
 */
const { startPostgres } = await import('../packages/server/tests/threads/postgresServer.ts');

const port = Number(process.env.PGPORT ?? 5433);
const server = await startPostgres(port);
console.log(
  `PostgreSQL (throwaway) on 127.0.0.1:${port}\n\n  DATABASE_URL=${server.url} npm start\n\nCtrl+C stops it and deletes its data.`,
);
const stop = () => void server.destroy().finally(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
