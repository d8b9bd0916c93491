import { bareToolName, bindingName, type ToolStub } from '../stubs/toolStubs.js';

/** The result of a `discover_tools` call (the tool's output, JSON). */
export interface DiscoverToolsOutput {
  /** Bare names this call discovered or confirmed (read back by `discoveredInConversation`). */
  readonly discovered: readonly string[];
  /** Signatures returned for the first time in this conversation. */
  readonly tools: readonly { readonly name: string; readonly description: string; readonly typeStub: string }[];
  /** Bindings whose signatures an earlier result of this conversation already holds: not repeated. */
  readonly alreadyDiscovered?: readonly string[];
  /** Names that could not be discovered, each with the reason. */
  readonly errors?: readonly string[];
}

/** What {@link answerDiscovery} needs to know. */
export interface DiscoveryCatalog {
  readonly eager: ReadonlyMap<string, ToolStub>;
  readonly lazy: ReadonlyMap<string, ToolStub>;
}

/** Most names one call may ask for (the rest are refused, so one call cannot return the whole catalog's text unbounded). */
export const MAX_NAMES_PER_CALL = 50;

/**
 * Answers `discover_tools`: the stub of each newly requested lazy tool, once per conversation. A
 * name discovered earlier comes back under `alreadyDiscovered` without its stub (pay once: the
 * stub is in the history already), an eager name points to the system prompt, an unknown name is
 * an error that does not fail the others.
 */
export function answerDiscovery(
  requested: readonly string[],
  catalog: DiscoveryCatalog,
  discoveredBefore: ReadonlySet<string>,
): DiscoverToolsOutput {
  const discovered: string[] = [];
  const tools: { name: string; description: string; typeStub: string }[] = [];
  const already: string[] = [];
  const errors: string[] = [];
  const seen = new Set<string>();
  for (const raw of requested) {
    const name = bareToolName(raw.trim());
    if (seen.has(name)) continue;
    seen.add(name);
    if (seen.size > MAX_NAMES_PER_CALL) {
      errors.push(`Only ${MAX_NAMES_PER_CALL} names per call: ask for '${name}' in another call.`);
      continue;
    }
    const stub = catalog.lazy.get(name);
    if (!stub) {
      errors.push(
        catalog.eager.has(name)
          ? `${bindingName(name)} needs no discovery: its signature is in the system prompt.`
          : `Unknown API '${raw}'. Pass names exactly as listed under Discoverable APIs.`,
      );
      continue;
    }
    discovered.push(name);
    if (discoveredBefore.has(name)) already.push(stub.binding);
    else tools.push({ name: stub.binding, description: stub.description, typeStub: stub.typeStub });
  }
  return {
    discovered,
    tools,
    ...(already.length ? { alreadyDiscovered: already } : {}),
    ...(errors.length ? { errors } : {}),
  };
}
