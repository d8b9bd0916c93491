import type { ModelRequestRecord, RequestSegmentRecord } from '@chatwire/core/shared';

/** A message of a request, as the diff names it. */
export interface DiffMessage {
  /** Its place in the request's conversation (0-based) and its id, when it has one. */
  readonly index: number;
  readonly id?: string;
  readonly role: string;
  readonly tokens: number;
}

/** Where a request stops repeating the previous one, in the provider's cache order, and why. */
export interface CacheBreak {
  readonly at: 'tools' | 'system' | 'messages';
  /** The cause, in words: what changed inside what the previous call had. */
  readonly cause: string;
}

/** What changed from one model call's request to the next. */
export interface RequestDiff {
  /** True for the first request recorded: there is nothing to compare with. */
  readonly first: boolean;
  readonly toolsAdded: readonly string[];
  readonly toolsRemoved: readonly string[];
  /** Tools sent both times whose definition is not the same. */
  readonly toolsChanged: readonly string[];
  readonly systemChanged: boolean;
  readonly messagesAdded: readonly DiffMessage[];
  /** Messages both requests carry (by id) whose text is not the same. */
  readonly messagesChanged: readonly DiffMessage[];
  readonly messagesRemoved: readonly DiffMessage[];
  /**
   * The first place, in the order providers cache a prompt (tool definitions, system prompt,
   * messages), where this request does not repeat the previous one: what a prompt cache holds stops
   * there. `undefined` when the previous request is all repeated (only new messages follow it).
   */
  readonly cacheBreak: CacheBreak | undefined;
}

interface Item {
  readonly key: string;
  readonly label: string;
  readonly digest: string;
  readonly tokens: number;
  readonly message?: DiffMessage;
}

/** The tools of a request in order, each with the digest of its definition. */
function toolsOf(record: ModelRequestRecord): Item[] {
  return record.segments.flatMap((segment) =>
    segment.block === 'tool' && segment.tool !== undefined
      ? [{ key: segment.tool, label: segment.tool, digest: segment.digest, tokens: segment.tokens }]
      : [],
  );
}

/** The messages of a request in order (texts of one message joined), keyed by id (else by place). */
function messagesOf(record: ModelRequestRecord): Item[] {
  const items: Item[] = [];
  for (const segment of record.segments) {
    const message = segment.message;
    if (segment.block !== 'message' || !message) continue;
    const key = message.id ?? `#${message.index}`;
    const last = items.at(-1);
    if (last?.key === key) {
      items[items.length - 1] = {
        ...last,
        digest: `${last.digest}+${segment.digest}`,
        tokens: last.tokens + segment.tokens,
        message: { ...(last.message as DiffMessage), tokens: last.tokens + segment.tokens },
      };
      continue;
    }
    const named: DiffMessage = {
      index: message.index,
      ...(message.id ? { id: message.id } : {}),
      role: message.role,
      tokens: segment.tokens,
    };
    items.push({
      key,
      label: `message ${message.index + 1} (${message.role})`,
      digest: segment.digest,
      tokens: segment.tokens,
      message: named,
    });
  }
  return items;
}

const systemOf = (record: ModelRequestRecord) =>
  record.segments
    .filter((segment: RequestSegmentRecord) => segment.block === 'system')
    .map((segment) => segment.digest)
    .join('+');

const list = (names: readonly string[]) => names.join(', ');

/** Where `current` stops repeating `previous` in the tool list; `undefined` when the list is the same. */
function toolBreak(previous: readonly Item[], current: readonly Item[]): CacheBreak | undefined {
  for (let index = 0; index < previous.length; index++) {
    const before = previous[index] as Item;
    const now = current[index];
    if (now?.key === before.key && now.digest === before.digest) continue;
    const cause = !now
      ? `tool ${before.label} was removed from the end of the tool list`
      : now.key === before.key
        ? `the definition of tool ${now.label} changed`
        : current.some((item) => item.key === before.key)
          ? `the tool list changed order at position ${index + 1}: ${now.label} is now where ${before.label} was`
          : `tool ${before.label} was removed from position ${index + 1} of the tool list`;
    return { at: 'tools', cause };
  }
  if (current.length > previous.length) {
    const added = current.slice(previous.length).map((item) => item.label);
    return {
      at: 'tools',
      cause: `tool${added.length > 1 ? 's' : ''} ${list(added)} added after the previous tool list: what follows it (the system prompt, the messages) is no longer where it was`,
    };
  }
  return undefined;
}

/** Where `current` stops repeating `previous` in the messages; `undefined` when `previous` is all repeated. */
function messageBreak(previous: readonly Item[], current: readonly Item[]): CacheBreak | undefined {
  for (let index = 0; index < previous.length; index++) {
    const before = previous[index] as Item;
    const now = current[index];
    if (now?.key === before.key && now.digest === before.digest) continue;
    const cause =
      now?.key === before.key
        ? `${before.label} changed`
        : current.some((item) => item.key === before.key)
          ? `${now ? now.label : 'a message'} now stands where ${before.label} was`
          : `${before.label} is no longer sent`;
    return { at: 'messages', cause };
  }
  return undefined;
}

/**
 * What changed from the previous model call's request (`undefined`: this is the first recorded)
 * to this one: tools added, removed or redefined, the system prompt, messages added, changed or
 * dropped, and where the request stops repeating the previous one in the providers' cache order
 * (the cause of a prompt-cache miss, named).
 *
 * @example
 * ```ts
 * requestDiff(first, second).toolsAdded; // ['getForecast']: the tool the first call discovered
 * ```
 */
export function requestDiff(previous: ModelRequestRecord | undefined, current: ModelRequestRecord): RequestDiff {
  const tools = toolsOf(current);
  const messages = messagesOf(current);
  if (!previous) {
    return {
      first: true,
      toolsAdded: tools.map((tool) => tool.key),
      toolsRemoved: [],
      toolsChanged: [],
      systemChanged: false,
      messagesAdded: messages.flatMap((item) => (item.message ? [item.message] : [])),
      messagesChanged: [],
      messagesRemoved: [],
      cacheBreak: undefined,
    };
  }
  const previousTools = toolsOf(previous);
  const previousMessages = messagesOf(previous);
  const toolsBefore = new Map(previousTools.map((tool) => [tool.key, tool]));
  const toolsNow = new Set(tools.map((tool) => tool.key));
  const messagesBefore = new Map(previousMessages.map((item) => [item.key, item]));
  const messagesNow = new Set(messages.map((item) => item.key));
  const systemChanged = systemOf(previous) !== systemOf(current);
  const named = (items: readonly Item[]) => items.flatMap((item) => (item.message ? [item.message] : []));
  return {
    first: false,
    toolsAdded: tools.filter((tool) => !toolsBefore.has(tool.key)).map((tool) => tool.key),
    toolsRemoved: previousTools.filter((tool) => !toolsNow.has(tool.key)).map((tool) => tool.key),
    toolsChanged: tools
      .filter((tool) => toolsBefore.has(tool.key) && toolsBefore.get(tool.key)?.digest !== tool.digest)
      .map((tool) => tool.key),
    systemChanged,
    messagesAdded: named(messages.filter((item) => !messagesBefore.has(item.key))),
    messagesChanged: named(messages.filter((item) => messagesBefore.has(item.key) && messagesBefore.get(item.key)?.digest !== item.digest)),
    messagesRemoved: named(previousMessages.filter((item) => !messagesNow.has(item.key))),
    cacheBreak:
      toolBreak(previousTools, tools) ??
      (systemChanged ? { at: 'system', cause: 'the system prompt changed' } : messageBreak(previousMessages, messages)),
  };
}
