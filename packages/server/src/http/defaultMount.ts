/**
 * Handlers that answer every request they are given (`createChatHandler`, `createToolsHandler`), with
 * the path `chatwireVitePlugin` mounts each at when it is given no `path`: a router it is not.
 */
const defaultPaths = new WeakMap<object, string>();

/** Marks `handler` as answering every request, to be mounted at `path` by default. */
export function withDefaultMount<Handler extends object>(handler: Handler, path: string): Handler {
  defaultPaths.set(handler, path);
  return handler;
}

/** The path `handler` is mounted at by default; `undefined` for a router or a table of routes. */
export const defaultMountOf = (handler: object): string | undefined => defaultPaths.get(handler);
