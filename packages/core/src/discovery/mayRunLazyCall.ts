/** A tool as the lazy gate reads it: its name, and whether it is lazy. */
export interface GatedTool {
  readonly name: string;
  readonly lazy?: boolean | undefined;
}

/**
 * The lazy gate: the one answer, on the server and in the browser, to "may this call run now?". An
 * eager tool's call may; a lazy tool's only once a discovery of it is in the conversation (one
 * discovered early in the same response included), or when nothing is withheld (`deferring: false`:
 * the server sends every tool). `discovered` gives the conversation's discovered set (derived from its
 * messages, see `discoveredToolsInChat` / `discoveredToolsInWire`); it is read only for a lazy tool
 * that is withheld, since deriving it walks the whole history. A promise of the set gives a promise.
 *
 * @example
 * ```ts
 * if (!mayRunLazyCall(tool, () => discoveredToolsInChat(messages))) holdUntilDiscovered(call);
 * ```
 */
export function mayRunLazyCall(tool: GatedTool, discovered: () => readonly string[], deferring?: boolean): boolean;
export function mayRunLazyCall(
  tool: GatedTool,
  discovered: () => readonly string[] | Promise<readonly string[]>,
  deferring?: boolean,
): boolean | Promise<boolean>;
export function mayRunLazyCall(
  tool: GatedTool,
  discovered: () => readonly string[] | Promise<readonly string[]>,
  deferring = true,
): boolean | Promise<boolean> {
  if (!tool.lazy || !deferring) return true;
  const names = discovered();
  return 'then' in names ? names.then((known) => known.includes(tool.name)) : names.includes(tool.name);
}
