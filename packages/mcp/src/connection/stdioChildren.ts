import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { Transport } from '@modelcontextprotocol/client';
import type { ChildProcess } from 'node:child_process';

/**
 * The SDK's stdio transport, subclassed only so that the version probe runs on this child itself:
 * the SDK probes a plain `StdioClientTransport` on a second, short-lived child of the same command
 * (one more process start per connection), a subclass in place.
 */
export class ChildTransport extends StdioClientTransport {}

/** Children still running, killed when this process exits (no orphans even without `close()`). */
const children = new Set<number>();
let exitHookInstalled = false;

/** Records a stdio child for the exit hook (installed with the first child). */
export function trackChild(pid: number | null): void {
  if (pid === null) return;
  children.add(pid);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const child of children) {
      try {
        process.kill(child, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  });
}

/** Forgets a stdio child that stopped (the exit hook leaves it alone). */
export function forgetChild(pid: number | null): void {
  if (pid !== null) children.delete(pid);
}

/** The pid of a transport's stdio child; `null` for HTTP transports and children not started. */
export function childPid(transport: Transport | undefined): number | null {
  return transport instanceof StdioClientTransport ? transport.pid : null;
}

/** Stops a stdio child at once (SIGTERM): for a server that never finished starting, or one being abandoned. */
export function stopChild(transport: Transport | undefined): void {
  const pid = childPid(transport);
  if (pid === null) return;
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    // already gone
  }
}

/**
 * Whether a stdio child may keep this process alive. The SDK keeps the child private; while the
 * connection is idle its process and pipes are unref'd, so a server file that connected and then
 * sat unused (a finished `vite build`, a script that returned) lets the process exit, and the exit
 * hook of {@link trackChild} stops the child. While a call or a listing is under way they hold the process as usual.
 */
export function holdProcess(transport: Transport | undefined, held: boolean): void {
  if (!(transport instanceof StdioClientTransport)) return;
  const child = (transport as unknown as { _process?: ChildProcess })._process;
  if (!child) return;
  for (const handle of [child, child.stdin, child.stdout, child.stderr]) {
    const refable = handle as { ref?: () => void; unref?: () => void } | null;
    if (held) refable?.ref?.();
    else refable?.unref?.();
  }
}
