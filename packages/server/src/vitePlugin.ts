import { defaultMountOf } from './http/defaultMount.js';
import { ServerResources } from './http/serverResources.js';
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

/** Fetch handlers by exact pathname, e.g. `{ '/api/chat': handleChat, '/api/tools': handleTools }`. */
export type FetchRoutes = Readonly<Record<string, FetchHandler>>;

/** Options of {@link chatwireVitePlugin}. */
export interface ChatwireVitePluginOptions {
  /**
   * Mount the handler at this pathname (exact match, query ignored); every other request goes on to
   * Vite. Defaults to `/api/chat` for a handler from `createChatHandler` and `/api/tools` for one from
   * `createToolsHandler` (they answer every request they get); any other handler is a router: it
   * sees every request and returns `undefined` for those that are not its own.
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

const checkedPath = (path: string): string => {
  if (!path.startsWith('/')) throw new TypeError(`chatwireVitePlugin: a mount path must start with '/' (got '${path}').`);
  return path;
};

/**
 * Mounts Fetch handlers on Vite's dev and preview servers, so the UI and the API share one origin:
 * a handler at a path, a table of routes, or a router. Requests no handler takes go on to Vite (the
 * app's pages and assets).
 *
 * What the handlers open while they answer (the MCP servers of `@chatwire/mcp`, which connect on first
 * use), and what the files `vite.config.ts` imports opened before the plugin was created, is closed
 * with the Vite server: when it closes, and when it restarts because a file its config imports
 * changed (see `closeWithServer`).
 *
 * @example
 * ```ts
 * const handleChat = createChatHandler({ model: createScriptedModel(), tools });
 * export default defineConfig({ plugins: [react(), chatwireVitePlugin(handleChat, { path: '/api/chat' })] });
 * // or several: chatwireVitePlugin({ '/api/chat': handleChat, '/api/tools': createToolsHandler(tools) })
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
    const routes = new Map(
      Object.entries(typeof handler === 'function' ? { [options.path as string]: handler } : handler).map(([path, route]) => [
        checkedPath(path),
        toNodeListener(route, { allowedHosts: 'any' }),
      ]),
    );
    // Matched on the raw URL, before any Request is built: requests for the app's pages and assets
    // go straight on to Vite, untouched.
    middleware = (req, res, next) => {
      const path = pathnameOf(req.url);
      const route = path === undefined ? undefined : routes.get(path);
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
