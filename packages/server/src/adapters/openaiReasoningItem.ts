/** The fields of a streamed reasoning item that go back with the history. */
export interface StreamedReasoningItem {
  readonly id?: string | undefined;
  readonly encrypted_content?: string | null | undefined;
  readonly summary?: unknown;
}

/**
 * A reasoning item as this adapter sends it back: the item OpenAI streamed, with its encrypted content
 * (stateless requests carry the reasoning this way) and its summary.
 */
export interface OpenAIResponsesReasoningItem {
  readonly type: 'reasoning';
  readonly id?: string;
  readonly encrypted_content: string;
  readonly summary: readonly { readonly type: 'summary_text'; readonly text: string }[];
}

/**
 * A reasoning item of the stream as it goes in the history (a reasoning message's `encryptedValue`): the
 * item's JSON, with only the fields sent back. `undefined` when it carries no encrypted content.
 */
export function encodeReasoningItem(item: StreamedReasoningItem): string | undefined {
  if (typeof item.encrypted_content !== 'string' || !item.encrypted_content) return undefined;
  const sent: OpenAIResponsesReasoningItem = {
    type: 'reasoning',
    ...(typeof item.id === 'string' ? { id: item.id } : {}),
    encrypted_content: item.encrypted_content,
    summary: summaryOf(item.summary),
  };
  return JSON.stringify(sent);
}

const summaryOf = (summary: unknown): OpenAIResponsesReasoningItem['summary'] =>
  Array.isArray(summary)
    ? summary.flatMap((part: unknown) =>
        part && typeof part === 'object' && typeof (part as { text?: unknown }).text === 'string'
          ? [{ type: 'summary_text' as const, text: (part as { text: string }).text }]
          : [],
      )
    : [];

/**
 * The reasoning item a reasoning message's `encryptedValue` holds, when this adapter wrote it; anything else
 * (another adapter's artefact, a value that is not one) is `undefined`, and the message is not sent.
 */
export function decodeReasoningItem(value: string | undefined): OpenAIResponsesReasoningItem | undefined {
  if (!value || !value.startsWith('{')) return undefined;
  let item: unknown;
  try {
    item = JSON.parse(value);
  } catch {
    return undefined;
  }
  if (!item || typeof item !== 'object') return undefined;
  const { type, id, encrypted_content: content, summary } = item as Record<string, unknown>;
  if (type !== 'reasoning' || typeof content !== 'string' || !content) return undefined;
  return { type: 'reasoning', ...(typeof id === 'string' ? { id } : {}), encrypted_content: content, summary: summaryOf(summary) };
}
