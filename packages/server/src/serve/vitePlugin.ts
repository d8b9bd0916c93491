import { defaultMountOf } from '../http/defaultMount.js';
import { ServerResources } from '../http/serverResources.js';
import { toNodeListener, type FetchHandler } from './node.js';

type NodeListener = ReturnType<typeof toNodeListener>;

/** The part of a Vite dev or preview server the plugin uses. */
interface ViteServerLike {
  readonly middlewares: { use(handler: NodeListener): void };
  /** `null` in middleware mode. */
  readonly httpServer?: { once(event: 'close', listener: () => void): unknown } | null;
}

/** The shape of a Vite plugin this module needs (no runtime dependency on Vite). */
export interface VitePluginLike {
  readonly name: string;
  configureServer(server: ViteServerLike): void;
  configurePreviewServer(server: ViteServerLike): void;
  /** Vite 8 calls it after the dev server closed or before it restarts. */
  closeServer(): Promise<void>;
  /** Vite 8 calls it after the preview server closed. */
  closePreviewServer(): Promise<void>;
}

/**
 * Fetch handlers by mount path, e.g. `{ '/api/chat': handleChat, '/api/threads': handleThreads }`: each
 * serves its path and every path below it (`/api/threads/<id>`); the longest mount that matches wins.
 */
export type FetchRoutes = Readonly<Record<string, FetchHandler>>;

/** Options of {@link chatwireVitePlugin}. */
export interface ChatwireVitePluginOptions {
  /**
   * Mount the handler at this path: it serves the path and every path below it (query ignored);
   * every other request goes on to Vite. Defaults to the handler's own path for the handlers of this
   * package (`createChatHandler`: `/api/chat`, `createToolsHandler`: `/api/tools`, `createThreadsHandler`:
   * its `threadsPath`, `/api/threads` by default, `createGrantsHandler`: `/api/grants`); any other
   * handler is a router: it sees every request and returns `undefined` for those that are not its own.
   */
  readonly path?: string;
}

/** The path of a request target; `undefined` when it does not parse (then no route matches). */
const pathnameOf = (target = '/'): string | undefined => {
  try {
    return new URL(target, 'http://localhost').pathname;
  } catch {
    return undefined;
  }
};

/** A mount path as written, checked and without a trailing slash (`/api/threads/` mounts `/api/threads`). */
const mountPath = (path: string): string => {
  if (!path.startsWith('/')) throw new TypeError(`chatwireVitePlugin: a mount path must start with '/' (got '${path}').`);
  return path.length > 1 ? path.replace(/\/+$/, '') || '/' : path;
};

/** Whether `path` is `mount` or below it (`/api/threads/t1` is below `/api/threads`; `/api/threadsX` is not). */
const isUnder = (path: string, mount: string): boolean =>
  mount === '/' || path === mount || (path.startsWith(mount) && path[mount.length] === '/');

/**
 * Mounts Fetch handlers on Vite's dev and preview servers, so the UI and the API share one origin:
 * a handler at a path, a table of routes, or a router. A mounted handler serves its path and every
 * path below it (`/api/threads` also serves `/api/threads/<id>`); requests no handler takes go on to
 * Vite (the app's pages, assets and HMR).
 *
 * What the handlers open while they answer (the MCP servers of `@chatwire/mcp`, which connect on first
 * use), and what the files `vite.config.ts` imports opened before the plugin was created, is closed
 * with the Vite server: when it closes, and when it restarts because a file its config imports
 * changed (see `closeWithServer`).
 *
 * @example
 * ```ts
 * const options = { model: createScriptedModel(), tools, threads: createPgliteThreadStore({ dataDir: '.data/threads' }) };
 * export default defineConfig({
 *   plugins: [
 *     react(),
 *     chatwireVitePlugin({
 *       '/api/chat': createChatHandler(options),
 *       '/api/threads': createThreadsHandler(options), // and /api/threads/<id>, /api/threads/<id>/active
 *       '/api/tools': createToolsHandler(tools),
 *     }),
 *   ],
 * });
 * // one handler: chatwireVitePlugin(createChatHandler(options)) serves /api/chat, and nothing else
 * ```
 */
export function chatwireVitePlugin(handler: FetchHandler | FetchRoutes, given: ChatwireVitePluginOptions = {}): VitePluginLike {
  const defaultPath = typeof handler === 'function' ? defaultMountOf(handler) : undefined;
  const options: ChatwireVitePluginOptions =
    given.path === undefined && defaultPath !== undefined ? { ...given, path: defaultPath } : given;
  let middleware: NodeListener;
  if (typeof handler === 'function' && options.path === undefined) {
    // Vite checks Host itself (its `server.allowedHosts`), so the app's own setting governs.
    middleware = toNodeListener(handler, { allowedHosts: 'any' });
  } else {
    if (typeof handler !== 'function' && options.path !== undefined) {
      throw new TypeError('chatwireVitePlugin: give either a table of routes or one handler with a `path`, not both.');
    }
    const routes = Object.entries(typeof handler === 'function' ? { [options.path as string]: handler } : handler)
      .map(([path, route]) => ({ mount: mountPath(path), serve: toNodeListener(route, { allowedHosts: 'any' }) }))
      // Longest first: `/api/chat/runs` before `/api/chat`, `/api` last.
      .sort((a, b) => b.mount.length - a.mount.length);
    const mounts = new Set<string>();
    for (const { mount } of routes) {
      if (mounts.has(mount)) throw new TypeError(`chatwireVitePlugin: two routes mount '${mount}'.`);
      mounts.add(mount);
    }
    // Matched on the URL's path (dot segments resolved, as the handler will read it), before any
    // Request is built: requests for the app's pages and assets go straight on to Vite, untouched.
    middleware = (req, res, next) => {
      const path = pathnameOf(req.url);
      const route = path === undefined ? undefined : routes.find(({ mount }) => isUnder(path, mount))?.serve;
      if (route) route(req, res, next);
      else if (next) next();
      else {
        res.statusCode = 404;
        res.end('Not found');
      }
    };
  }
  // What the server file opened as it was imported (connections started at module level) closes
  // with the first server this plugin is given; what a request opens, with the server that served it.
  const imported = new ServerResources();
  imported.claimUnclaimed();
  const open = { dev: new Set<ServerResources>([imported]), preview: new Set<ServerResources>([imported]) };
  const closeAll = async (kind: keyof typeof open) => {
    const closing = [...open[kind]];
    open[kind].clear();
    await Promise.all(closing.map((resources) => resources.close()));
  };
  const mount = (server: ViteServerLike, kind: keyof typeof open) => {
    const resources = new ServerResources();
    open[kind].add(resources);
    // Vite before 8 has no closeServer hook; its HTTP server closes with every close and restart.
    server.httpServer?.once('close', () => {
      open[kind].delete(resources);
      void Promise.all([resources.close(), imported.close()]);
    });
    server.middlewares.use((req, res, next) => resources.serve(() => middleware(req, res, next)));
  };
  return {
    name: 'chatwire',
    // Block bodies on purpose: Vite treats a returned function as a post-middleware hook.
    configureServer: (server) => {
      mount(server, 'dev');
    },
    configurePreviewServer: (server) => {
      mount(server, 'preview');
    },
    closeServer: () => closeAll('dev'),
    closePreviewServer: () => closeAll('preview'),
  };
}
