/**
 * What the scripts that drive apps outside the workspace share (the recipes test, the new-user test): running a
 * command in an app with a clean environment, starting its server and waiting for it, free ports, driving it in
 * Chromium with a spec of tests/recipes, and reading the process table for the MCP servers an app started.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { basename, join } from 'node:path';
import { appEnvironment, repositoryRoot } from './packPackages.mjs';

/**
 * The harness for one script: `drop` names environment variables its apps must not inherit (lowercase),
 * `firstPort` the first of the ports its servers take (default: free ones).
 */
export function appHarness({ drop = [], firstPort } = {}) {
  /** npm exports its own settings to scripts; commands run in an app must not act on this repository. */
  const cleanEnv = appEnvironment(drop);
  let nextPort = firstPort;

  function freePort() {
    if (nextPort !== undefined) return Promise.resolve(nextPort++);
    return new Promise((resolve, reject) => {
      const probe = createServer();
      probe.once('error', reject);
      probe.listen(0, '127.0.0.1', () => {
        const { port } = probe.address();
        probe.close(() => resolve(port));
      });
    });
  }

  /** Runs a command to its end; its output is shown only when it fails (or always with `inherit`). */
  function run(command, args, { cwd, env = {}, inherit = false, timeoutMs }) {
    return new Promise((resolve, reject) => {
      const child = spawn(command, args, {
        cwd,
        env: { ...cleanEnv, ...env },
        stdio: inherit ? 'inherit' : ['ignore', 'pipe', 'pipe'],
        detached: timeoutMs !== undefined,
      });
      // With a time limit the command runs in its own process group, stopped whole when the time is up.
      let late = false;
      const timer =
        timeoutMs === undefined
          ? undefined
          : setTimeout(() => {
              late = true;
              try {
                process.kill(-child.pid, 'SIGKILL');
              } catch {
                // gone already
              }
            }, timeoutMs);
      child.on('close', () => clearTimeout(timer));
      let output = '';
      child.stdout?.on('data', (chunk) => (output += chunk));
      child.stderr?.on('data', (chunk) => (output += chunk));
      child.on('error', reject);
      child.on('close', (code, signal) =>
        code === 0
          ? resolve(output)
          : reject(
              new Error(
                `\`${command} ${args.join(' ')}\` in ${cwd} ${late ? `did not exit within ${timeoutMs / 1000} s` : 'failed'} (${signal ?? `exit ${code}`})\n${output}`,
              ),
            ),
      );
    });
  }

  /**
   * Starts a server (in its own process group, so it stops with its children) and waits until `url` answers.
   * `stop()` ends the group; `signal(name)` sends a signal to the server process alone; `exited` settles when it exits.
   */
  async function start(command, args, { cwd, env = {}, url }) {
    const child = spawn(command, args, { cwd, env: { ...cleanEnv, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    let exitedNow = false;
    const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
    child.on('exit', () => (exitedNow = true));
    const stop = () =>
      new Promise((resolve) => {
        // The group, whether or not its leader is still there: what it started may be.
        try {
          process.kill(-child.pid, 'SIGTERM');
        } catch {
          return resolve();
        }
        if (exitedNow) return resolve();
        child.once('exit', () => resolve());
        setTimeout(() => {
          try {
            process.kill(-child.pid, 'SIGKILL');
          } catch {
            // gone already
          }
        }, 5_000).unref();
      });
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (exitedNow) throw new Error(`\`${command} ${args.join(' ')}\` exited before serving ${url}\n${output}`);
      try {
        const response = await fetch(url);
        if (response.ok) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`\`${command} ${args.join(' ')}\` did not serve ${url} within 60 s\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    return { stop, output: () => output, exited, signal: (name) => child.kill(name) };
  }

  /** Drives the page at `baseURL` in Chromium with one spec of tests/recipes (`recipe.spec.ts` by default). */
  function drive(baseURL, label, { spec = 'recipe.spec.ts', env = {} } = {}) {
    return run(join(repositoryRoot, 'node_modules', '.bin', 'playwright'), ['test', '-c', 'tests/recipes/playwright.config.ts', spec], {
      cwd: repositoryRoot,
      env: { RECIPE_URL: baseURL, RECIPE_LABEL: label, ...env },
      inherit: true,
    });
  }

  return { cleanEnv, freePort, run, start, drive };
}

/**
 * The stdio MCP servers an app's `mcp.json` configures: each server's name and command (`command` as written,
 * read from the process table by its base name).
 */
export function stdioServersOf(app) {
  const { mcpServers } = JSON.parse(readFileSync(join(app, 'mcp.json'), 'utf8'));
  return Object.entries(mcpServers)
    .filter(([, server]) => typeof server.command === 'string' && server.disabled !== true)
    .map(([name, server]) => ({ name, command: basename(server.command) }));
}

/**
 * How many processes run each server's command with `folder` as their working directory, from the process
 * table (/proc): `{ memory: 1, files: 1 }`. A command runs as itself (`mcp-server-memory`) or as the argument of
 * an interpreter its shebang names (`node .../node_modules/.bin/mcp-server-memory`).
 */
export function serverProcesses(folder, servers) {
  const counts = Object.fromEntries(servers.map(({ name }) => [name, 0]));
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readlinkSync(`/proc/${entry}/cwd`) !== folder) continue;
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean);
      const programs = argv.slice(0, 2).map((arg) => basename(arg));
      for (const { name, command } of servers) if (programs.includes(command)) counts[name]++;
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return counts;
}
