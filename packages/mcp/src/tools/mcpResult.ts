/** One item of an MCP tool result, as the model reads it (binary data is described, not inlined). */
export type McpResultItem =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image' | 'audio'; readonly mimeType: string; readonly bytes: number; readonly data?: string }
  | { readonly type: 'resource'; readonly uri: string; readonly mimeType?: string; readonly text?: string; readonly bytes?: number }
  | {
      readonly type: 'resource_link';
      readonly uri: string;
      readonly name?: string;
      readonly description?: string;
      readonly mimeType?: string;
    };

/** What an MCP tool call returns to the model. */
export interface McpToolOutput {
  readonly content: readonly McpResultItem[];
  /** The server's `structuredContent`, kept as sent (checked against the tool's `outputSchema` when it has one). */
  readonly structuredContent?: Record<string, unknown>;
  /** Set when the result was cut to `maxResultChars`. */
  readonly truncated?: { readonly originalChars: number };
}

/** Inline base64 data up to this many characters (a small icon); larger binaries are only described. */
const INLINE_DATA_CHARS = 8_192;

const base64Bytes = (data: string): number => Math.floor((data.length * 3) / 4) - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0);

function mapItem(item: unknown): McpResultItem {
  const value = (item ?? {}) as Record<string, unknown>;
  const str = (key: string): string | undefined => (typeof value[key] === 'string' ? (value[key] as string) : undefined);
  switch (value['type']) {
    case 'text':
      return { type: 'text', text: str('text') ?? '' };
    case 'image':
    case 'audio': {
      const data = str('data') ?? '';
      return {
        type: value['type'],
        mimeType: str('mimeType') ?? 'application/octet-stream',
        bytes: base64Bytes(data),
        ...(data.length <= INLINE_DATA_CHARS ? { data } : {}),
      };
    }
    case 'resource': {
      const resource = (value['resource'] ?? {}) as Record<string, unknown>;
      const uri = typeof resource['uri'] === 'string' ? resource['uri'] : '';
      const mimeType = typeof resource['mimeType'] === 'string' ? resource['mimeType'] : undefined;
      if (typeof resource['text'] === 'string') return { type: 'resource', uri, ...(mimeType ? { mimeType } : {}), text: resource['text'] };
      const blob = typeof resource['blob'] === 'string' ? resource['blob'] : '';
      return { type: 'resource', uri, ...(mimeType ? { mimeType } : {}), bytes: base64Bytes(blob) };
    }
    case 'resource_link': {
      const name = str('name');
      const description = str('description');
      const mimeType = str('mimeType');
      return {
        type: 'resource_link',
        uri: str('uri') ?? '',
        ...(name ? { name } : {}),
        ...(description ? { description } : {}),
        ...(mimeType ? { mimeType } : {}),
      };
    }
    default:
      return { type: 'text', text: `[unsupported content type ${JSON.stringify(String(value['type'])).slice(0, 40)}]` };
  }
}

/** The text of an `isError` result (what the model reads as the tool's error). */
export function errorTextOf(result: { readonly content?: unknown }): string {
  const content = Array.isArray(result.content) ? result.content : [];
  const text = content
    .map(mapItem)
    .map((item) => (item.type === 'text' ? item.text : `[${item.type}]`))
    .join('\n')
    .trim();
  return text.length > 2_000 ? `${text.slice(0, 2_000)}…` : text || 'the tool reported an error';
}

/**
 * Maps an MCP `CallToolResult` to what the model reads: text as text, images and audio described
 * (inlined only when tiny), embedded resources as their text or size, links as links, and
 * `structuredContent` kept. The whole is cut to `maxChars` of JSON text.
 */
export function toToolOutput(
  result: { readonly content?: unknown; readonly structuredContent?: unknown },
  maxChars: number,
): McpToolOutput {
  const content = (Array.isArray(result.content) ? result.content : []).map(mapItem);
  const structured =
    result.structuredContent && typeof result.structuredContent === 'object' && !Array.isArray(result.structuredContent)
      ? { structuredContent: result.structuredContent as Record<string, unknown> }
      : {};
  const output: McpToolOutput = { content, ...structured };
  const size = JSON.stringify(output).length;
  if (size <= maxChars) return output;
  // Too big for a model's context: keep text from the start, up to the budget.
  let budget = maxChars;
  const kept: McpResultItem[] = [];
  for (const item of content) {
    if (budget <= 0) break;
    if (item.type === 'text') {
      kept.push({ type: 'text', text: item.text.length > budget ? `${item.text.slice(0, budget)}…` : item.text });
      budget -= item.text.length;
    } else {
      const { data: _data, ...described } = item as McpResultItem & { data?: string };
      kept.push(described as McpResultItem);
      budget -= 200;
    }
  }
  return { content: kept, truncated: { originalChars: size } };
}
