/**
 * The handlers of this package (`createChatHandler`, `createToolsHandler`, `createThreadsHandler`,
 * `createGrantsHandler`), with the path `chatwireVitePlugin` mounts each at (that path and every
 * path below it) when it is given one alone, without a `path`: none of them is a router.
 */
const defaultPaths = new WeakMap<object, string>();

/**
 * Marks `handler` as mounted at `path` by default: `chatwireVitePlugin` given it alone mounts it there
 * (`@chatwire/mcp`'s `createMcpAuthHandler` uses it for `/api/mcp`). Returns `handler`.
 */
export function withDefaultMount<Handler extends object>(handler: Handler, path: string): Handler {
  defaultPaths.set(handler, path);
  return handler;
}

/** The path `handler` is mounted at by default; `undefined` for a router or a table of routes. */
export const defaultMountOf = (handler: object): string | undefined => defaultPaths.get(handler);
