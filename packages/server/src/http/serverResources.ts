import { AsyncLocalStorage } from 'node:async_hooks';

/** Something a server opens and must close when it stops: an MCP connection, a pool of clients. */
export interface Closeable {
  close(): unknown;
}

/**
 * The process's registry, kept on `globalThis`: a config bundle that inlines its own copy of this
 * package (Vite's config loader may) still finds the one that `@chatwire/mcp` sees.
 */
interface Registry {
  /** The resources of the server answering the current request. */
  readonly scope: AsyncLocalStorage<ServerResources>;
  /** Each tied resource's current set (a resource moves when a plugin claims it). */
  readonly owners: WeakMap<Closeable, Set<Closeable>>;
  /** What was opened outside any request since a plugin last claimed it. */
  readonly unclaimed: Set<Closeable>;
}

const REGISTRY_KEY = Symbol.for('chatwire.serverResources');
const registry = ((globalThis as Record<symbol, unknown>)[REGISTRY_KEY] ??= {
  scope: new AsyncLocalStorage(),
  owners: new WeakMap(),
  unclaimed: new Set(),
}) as Registry;

/** Puts `resource` in `set`, out of the one that held it; the returned function takes it out again. */
function tie(resource: Closeable, set: Set<Closeable>): () => void {
  registry.owners.get(resource)?.delete(resource);
  registry.owners.set(resource, set);
  set.add(resource);
  return () => {
    if (registry.owners.get(resource) !== set) return;
    set.delete(resource);
    registry.owners.delete(resource);
  };
}

/**
 * The resources one server closes when it stops (see {@link closeWithServer}). `chatwireVitePlugin`
 * keeps one per Vite server it is given.
 */
export class ServerResources {
  readonly #open = new Set<Closeable>();

  /** Takes every resource opened outside any request since the last claim (see {@link closeWithServer}). */
  claimUnclaimed(): void {
    for (const resource of [...registry.unclaimed]) tie(resource, this.#open);
  }

  /** Closes every resource tied here, once each (a failure to close is ignored: the server is going). */
  async close(): Promise<void> {
    const open = [...this.#open];
    this.#open.clear();
    for (const resource of open) registry.owners.delete(resource);
    await Promise.allSettled(open.map(async (resource) => resource.close()));
  }

  /** @internal Runs `serve` as a request of this server (what {@link closeWithServer} reads). */
  serve<Result>(serve: () => Result): Result {
    return registry.scope.run(this, serve);
  }

  /** @internal */
  add(resource: Closeable): () => void {
    return tie(resource, this.#open);
  }
}

/**
 * Ties `resource` to the server that will close it: the `chatwireVitePlugin` dev or preview server
 * answering the current request, or, outside any request, the plugin created next in this process
 * (a server file that `vite.config.ts` imports, opening it at import time). It is closed when that
 * server closes, or restarts (a save of a file its `vite.config.ts` imports restarts it).
 * `@chatwire/mcp` ties its connections this way when they open. Where no plugin comes (another
 * host, a script), close the resource yourself. The returned function unties it, for a resource
 * that was closed by other means.
 *
 * @example
 * ```ts
 * import { closeWithServer } from '@chatwire/server';
 * declare const pool: { close(): Promise<void> };
 * // where `pool` is opened on first use, inside a handler:
 * const untie = closeWithServer(pool);
 * ```
 */
export function closeWithServer(resource: Closeable): () => void {
  const server = registry.scope.getStore();
  return server ? server.add(resource) : tie(resource, registry.unclaimed);
}
