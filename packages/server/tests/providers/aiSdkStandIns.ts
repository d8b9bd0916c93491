/**
 * Hand-written streams in the wire formats of the providers the bridge is tested through, for the
 * loopback stand-in (providerServer.ts). Nothing here is recorded from a live service.
 *
 * Gemini (`POST /v1beta/models/{model}:streamGenerateContent?alt=sse`): Server-Sent Events whose data
 * is one `GenerateContentResponse` each (Gemini API reference, "Generating content": `candidates[].content.parts`
 * with `text`, `thought`, `thoughtSignature`, `functionCall { id?, name, args }`; `finishReason`;
 * `usageMetadata { promptTokenCount, cachedContentTokenCount, candidatesTokenCount, thoughtsTokenCount,
 * totalTokenCount }`), events ended by `\r\n\r\n`, no end marker. Vertex AI's streamed function call
 * arguments (`functionCallingConfig.streamFunctionCallArguments`) arrive as `functionCall { name,
 * willContinue }`, then `functionCall { partialArgs: [{ jsonPath, stringValue | numberValue, willContinue }] }`
 * parts, then an empty `functionCall {}` (Vertex AI REST reference, `FunctionCall` and `PartialArg`).
 * Errors: `{ "error": { "code", "message", "status" } }`.
 *
 * Mistral (`POST /v1/chat/completions`, `stream: true`): Server-Sent Events of `chat.completion.chunk`
 * objects (`choices[0].delta.content` text, `delta.tool_calls[] { id, index, function { name, arguments } }`
 * with the arguments in pieces, `finish_reason`), the last chunk with `usage { prompt_tokens,
 * completion_tokens, total_tokens, prompt_tokens_details { cached_tokens } }`, then `data: [DONE]`
 * (Mistral API reference, "Chat Completion"). Errors: `{ "object": "error", "message", "type", "param", "code" }`.
 */

/** One Gemini response part. */
export type GeminiPart =
  | { readonly text: string; readonly thought?: boolean; readonly thoughtSignature?: string }
  | { readonly functionCall: Readonly<Record<string, unknown>>; readonly thoughtSignature?: string };

/** Gemini usage metadata. */
export interface GeminiUsage {
  readonly promptTokenCount: number;
  readonly candidatesTokenCount: number;
  readonly cachedContentTokenCount?: number;
  readonly thoughtsTokenCount?: number;
}

/** A Gemini stream: one response per group of parts; the last carries the finish reason and usage. */
export function geminiStream(groups: readonly (readonly GeminiPart[])[], usage: GeminiUsage, finishReason = 'STOP'): string {
  const total = usage.promptTokenCount + usage.candidatesTokenCount + (usage.thoughtsTokenCount ?? 0);
  return groups
    .map((parts, index) => {
      const last = index === groups.length - 1;
      const response = {
        candidates: [{ content: { role: 'model', parts }, index: 0, ...(last ? { finishReason } : {}) }],
        ...(last ? { usageMetadata: { ...usage, totalTokenCount: total } } : {}),
        modelVersion: 'gemini-2.5-flash',
        responseId: 'resp-standin',
      };
      return `data: ${JSON.stringify(response)}\r\n\r\n`;
    })
    .join('');
}

/** Gemini's error body. */
export const geminiError = (code: number, status: string, message: string) => JSON.stringify({ error: { code, message, status } });

/** One Mistral stream chunk's delta. */
export type MistralDelta =
  | { readonly content: string }
  | {
      readonly tool_calls: readonly {
        readonly id?: string;
        readonly index: number;
        readonly function: { readonly name?: string; readonly arguments: string };
      }[];
    };

/** Mistral usage. */
export interface MistralUsage {
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly cached_tokens?: number;
}

/** A Mistral stream: one chunk per delta, a last chunk with the finish reason and usage, then `[DONE]`. */
export function mistralStream(deltas: readonly MistralDelta[], usage: MistralUsage, finishReason = 'stop'): string {
  const chunk = (delta: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    `data: ${JSON.stringify({
      id: 'cmpl-standin',
      object: 'chat.completion.chunk',
      created: 1767225600,
      model: 'mistral-large-latest',
      choices: [{ index: 0, delta, finish_reason: null, ...extra }],
    })}\n\n`;
  const { cached_tokens: cached, ...counts } = usage;
  const last = `data: ${JSON.stringify({
    id: 'cmpl-standin',
    object: 'chat.completion.chunk',
    created: 1767225600,
    model: 'mistral-large-latest',
    choices: [{ index: 0, delta: { content: '' }, finish_reason: finishReason }],
    usage: {
      ...counts,
      total_tokens: usage.prompt_tokens + usage.completion_tokens,
      ...(cached === undefined ? {} : { prompt_tokens_details: { cached_tokens: cached } }),
    },
  })}\n\n`;
  return [chunk({ role: 'assistant', content: '' }), ...deltas.map((delta) => chunk({ ...delta })), last, 'data: [DONE]\n\n'].join('');
}

/** Mistral's error body. */
export const mistralError = (message: string, type = 'invalid_request_error') =>
  JSON.stringify({ object: 'error', message, type, param: null, code: null });

/** A Mistral tool call's arguments split into pieces, the first piece carrying its id and name. */
export function mistralCall(id: string, name: string, pieces: readonly string[], index = 0): MistralDelta[] {
  return pieces.map((piece, at) => ({
    tool_calls: [{ ...(at === 0 ? { id } : {}), index, function: { ...(at === 0 ? { name } : {}), arguments: piece } }],
  }));
}
