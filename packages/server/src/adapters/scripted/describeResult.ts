/** A tool result as the scripted model reads it. */
export interface ResultToDescribe {
  readonly toolName: string;
  /** The result text exactly as the model received it (usually JSON). */
  readonly content: string;
  readonly isError: boolean;
}

const MAX_FACTS = 5;

function parse(content: string): unknown {
  try {
    return JSON.parse(content);
  } catch {
    return content;
  }
}

/** `rainChance` -> `rain chance`, `trackingNumber` -> `tracking number`. */
const humanize = (key: string): string =>
  key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase();

const shorten = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** "a", "a and b", "a, b and c". */
function list(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

const sentence = (text: string): string => (/[.!?…]$/.test(text) ? text : `${text}.`);

function scalar(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() === '' ? undefined : shorten(value.replace(/\s+/g, ' '), 80);
  if (typeof value === 'number') return Number.isFinite(value) ? value.toLocaleString('en-US') : undefined;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return undefined;
}

/** The label of a list item: its name, title or id, when it has one. */
function itemLabel(item: unknown): string | undefined {
  if (typeof item !== 'object' || item === null) return scalar(item);
  const record = item as Record<string, unknown>;
  for (const key of ['name', 'title', 'subject', 'date', 'id']) {
    const label = scalar(record[key]);
    if (label) return label;
  }
  return undefined;
}

function describeArray(items: readonly unknown[], noun: string): string {
  const labels = items
    .map(itemLabel)
    .filter((label): label is string => label !== undefined)
    .slice(0, 3);
  const count = `${items.length} ${items.length === 1 ? noun.replace(/s$/, '') : noun}`;
  return labels.length > 0 ? `${count} (${labels.join(', ')}${items.length > labels.length ? ', …' : ''})` : count;
}

/** The facts of an object result, in the order its keys come: "city Paris", "3 days (...)". */
function facts(record: Readonly<Record<string, unknown>>): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(record)) {
    if (out.length >= MAX_FACTS) break;
    if (Array.isArray(value)) {
      out.push(describeArray(value, humanize(key)));
      continue;
    }
    const text = scalar(value);
    if (text !== undefined) out.push(`${humanize(key)} ${text}`);
  }
  return out;
}

/**
 * A value in words, as {@link describeResult} says a result: the facts of an object ("city Paris,
 * celsius 18 and conditions sunny"), a list's count and labels, or a scalar.
 */
export function describeValue(value: unknown): string {
  if (Array.isArray(value)) return value.length === 0 ? 'nothing' : describeArray(value, 'items');
  if (value === null || typeof value !== 'object') return scalar(value) ?? 'nothing';
  const found = facts(value as Record<string, unknown>);
  return found.length === 0 ? 'an empty object' : list(found);
}

function errorText(content: string): string {
  const value = parse(content);
  if (value && typeof value === 'object' && typeof (value as { error?: unknown }).error === 'string')
    return (value as { error: string }).error;
  return typeof value === 'string' ? value : content;
}

/**
 * One sentence about a tool result, as a model closes a turn: what came back in words, never the
 * raw JSON. A declined approval reads as the user's choice, not as a failure.
 *
 * @example
 * ```ts
 * describeResult({ toolName: 'getWeather', content: '{"city":"Paris","celsius":18}', isError: false });
 * // 'getWeather returned city Paris and celsius 18.'
 * ```
 */
export function describeResult(result: ResultToDescribe): string {
  const { toolName } = result;
  if (result.isError) {
    const message = errorText(result.content);
    if (/declined to run/i.test(message)) {
      return /superseded by a new message/i.test(message)
        ? `You moved on to a new message, so I did not run ${toolName}.`
        : `You declined ${toolName}, so I did not run it.`;
    }
    if (/was stopped before it finished/i.test(message)) return `${toolName} was stopped before it finished.`;
    return sentence(`${toolName} failed: ${shorten(message.trim(), 240)}`);
  }
  const value = parse(result.content);
  if (Array.isArray(value))
    return value.length === 0 ? `${toolName} returned nothing.` : `${toolName} returned ${describeArray(value, 'items')}.`;
  if (value === null || typeof value !== 'object') {
    const text = scalar(value);
    return text === undefined ? `${toolName} finished.` : sentence(`${toolName} returned ${text}`);
  }
  const found = facts(value as Record<string, unknown>);
  return found.length === 0 ? `${toolName} finished.` : sentence(`${toolName} returned ${list(found)}`);
}
