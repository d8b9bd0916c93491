import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

/** A Fetch-style handler; `undefined` means "not mine" (the next middleware or a 404 answers). */
export type FetchHandler = (request: Request) => Response | undefined | Promise<Response | undefined>;

/**
 * Adapts a Fetch handler to node:http (and Connect-style middleware, as Vite uses): builds a
 * `Request` whose signal aborts when the client disconnects, and streams the `Response` back,
 * flushing every chunk.
 */
export function toNodeListener(
  handler: FetchHandler,
): (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void {
  return (req, res, next) => {
    const abort = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (Array.isArray(value)) for (const item of value) headers.append(name, item);
      else if (value !== undefined) headers.set(name, value);
    }
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const request = new Request(url, {
      method: req.method ?? 'GET',
      headers,
      signal: abort.signal,
      ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half' } : {}),
    } as RequestInit);

    Promise.resolve(handler(request))
      .then(async (response) => {
        if (!response) {
          if (next) next();
          else {
            res.statusCode = 404;
            res.end('Not found');
          }
          return;
        }
        res.statusCode = response.status;
        response.headers.forEach((value, name) => res.setHeader(name, value));
        res.flushHeaders();
        if (!response.body) {
          res.end();
          return;
        }
        const reader = response.body.getReader();
        abort.signal.addEventListener('abort', () => void reader.cancel().catch(() => {}), { once: true });
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            if (!res.write(value)) await new Promise((resolve) => res.once('drain', resolve));
          }
        } catch {
          // the client went away, or the body failed: nothing more can be sent
        }
        res.end();
      })
      .catch((error: unknown) => {
        if (next) next(error);
        else if (!res.headersSent) {
          res.statusCode = 500;
          res.setHeader('content-type', 'application/json');
          res.end(JSON.stringify({ error: 'Internal error' }));
        } else res.end();
      });
  };
}

/** The shape of a Vite plugin this module needs (no runtime dependency on Vite). */
export interface VitePluginLike {
  readonly name: string;
  configureServer(server: { middlewares: { use(handler: ReturnType<typeof toNodeListener>): void } }): void;
  configurePreviewServer(server: { middlewares: { use(handler: ReturnType<typeof toNodeListener>): void } }): void;
}

/** Fetch handlers by exact pathname, e.g. `{ '/api/chat': handleChat, '/api/tools': handleTools }`. */
export type FetchRoutes = Readonly<Record<string, FetchHandler>>;

/** Options of {@link chatwireVitePlugin}. */
export interface ChatwireVitePluginOptions {
  /**
   * Mount the handler at this pathname (exact match, query ignored); every other request goes on to
   * Vite. Defaults to none: the handler sees every request and returns `undefined` for those that
   * are not its own (a router). A handler from `createChatHandler` answers every request, so it
   * needs a `path`.
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
 * @example
 * ```ts
 * const handleChat = createChatHandler({ model: createScriptedModel(), tools });
 * export default defineConfig({ plugins: [react(), chatwireVitePlugin(handleChat, { path: '/api/chat' })] });
 * // or several: chatwireVitePlugin({ '/api/chat': handleChat, '/api/tools': createToolsHandler(tools) })
 * ```
 */
export function chatwireVitePlugin(handler: FetchHandler | FetchRoutes, options: ChatwireVitePluginOptions = {}): VitePluginLike {
  let middleware: ReturnType<typeof toNodeListener>;
  if (typeof handler === 'function' && options.path === undefined) {
    middleware = toNodeListener(handler);
  } else {
    if (typeof handler !== 'function' && options.path !== undefined) {
      throw new TypeError('chatwireVitePlugin: give either a table of routes or one handler with a `path`, not both.');
    }
    const routes = new Map(
      Object.entries(typeof handler === 'function' ? { [options.path as string]: handler } : handler).map(([path, route]) => [
        checkedPath(path),
        toNodeListener(route),
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
  return {
    name: 'chatwire',
    // Block bodies on purpose: Vite treats a returned function as a post-middleware hook.
    configureServer: (server) => {
      server.middlewares.use(middleware);
    },
    configurePreviewServer: (server) => {
      server.middlewares.use(middleware);
    },
  };
}
