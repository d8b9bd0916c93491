import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { createClient } from 'redis';
import { afterAll, beforeAll } from 'vitest';

const binary = process.env['REDIS_SERVER_PATH'] ?? '/usr/bin/redis-server';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A real redis-server on a free loopback port, without persistence; `stop()` ends it. */
export async function startRedis(): Promise<{ url: string; stop: () => Promise<void> }> {
  if (!existsSync(binary))
    throw new Error(`redis-server is missing at ${binary}: run \`node .ci/ensure-redis.mjs\` (npm test does), or set REDIS_SERVER_PATH.`);
  const port = await freePort();
  const child: ChildProcess = spawn(
    binary,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout?.on('data', (chunk) => (output += String(chunk)));
  child.stderr?.on('data', (chunk) => (output += String(chunk)));
  const url = `redis://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    const probe = createClient({ url, socket: { reconnectStrategy: false } });
    probe.on('error', () => {});
    try {
      await probe.connect();
      await probe.ping();
      await probe.quit();
      break;
    } catch {
      await probe.disconnect().catch(() => {});
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`redis-server did not start: ${output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** A connected node-redis client. */
export async function redisClient(url: string) {
  const client = createClient({ url });
  client.on('error', () => {});
  await client.connect();
  return client;
}

/**
 * A redis-server for a whole test file: started before its tests and stopped after them, once the
 * closers the tests registered (servers, clients) have run, newest first. `url` is its address.
 */
export function redisForFile(): { readonly url: string; readonly closers: (() => Promise<unknown>)[] } {
  let redis: Awaited<ReturnType<typeof startRedis>> | undefined;
  const closers: (() => Promise<unknown>)[] = [];
  beforeAll(async () => {
    redis = await startRedis();
  }, 20_000);
  afterAll(async () => {
    for (const close of closers.splice(0).reverse()) await close().catch(() => {});
    await redis?.stop();
  });
  return {
    get url() {
      if (!redis) throw new Error('redis-server has not started: read `url` inside a test or hook.');
      return redis.url;
    },
    closers,
  };
}
