import type { ChatModel, ModelChunk, ModelRequest, ToolTokenCounter } from '../../model/chatModel.js';
import { countTextTokens } from '../../model/tokens.js';
import { untilAborted } from '../providerStream.js';
import { providerErrorOf } from './aiSdkErrors.js';
import { readStreamParts } from './readStreamParts.js';
import type {
  AiSdkCallOptions,
  AiSdkCallSettings,
  AiSdkLanguageModel,
  AiSdkProviderOptions,
  AiSdkProviderTool,
  AiSdkToolChoice,
} from './specification.js';
import { toAiSdkPrompt, toAiSdkTools } from './toAiSdkPrompt.js';
import { aiSdkRequestSegments } from './aiSdkRequestSegments.js';

/** Options of {@link aiSdkModel}. */
export interface AiSdkModelOptions {
  /**
   * Provider options of every call, by provider key, as the provider package documents them, e.g.
   * `{ google: { thinkingConfig: { includeThoughts: true } } }`. Defaults to none.
   */
  readonly providerOptions?: AiSdkProviderOptions;
  /**
   * Provider-defined tools, by the name the model calls them (`{ google_search: google.tools.googleSearch({}) }`),
   * sent with every call before Chatwire's tools. Calls the provider runs itself (searches, code
   * execution) stay with the provider: their text answer streams, their calls are not Chatwire tool calls.
   * A tool the app itself runs (e.g. Anthropic's `bash`) needs a Chatwire tool of the same name, which
   * then runs the calls while the provider's definition is what is sent. Defaults to none.
   */
  readonly providerTools?: Readonly<Record<string, AiSdkProviderTool>>;
  /** Which tool the model must use, when tools are sent. Defaults to the provider's default (`auto`). */
  readonly toolChoice?: AiSdkToolChoice;
  /** Call settings passed through (`maxOutputTokens`, `temperature`, `headers`...). Defaults to none (the provider's defaults). */
  readonly settings?: AiSdkCallSettings;
  /**
   * How the requests this model is sent are counted for the accounting. Defaults to
   * {@link aiSdkToolTokens} with this bridge's serialisation: o200k on the prompt and tools as the
   * bridge hands them to the provider package (JSON), each text where it sits; an estimate of what the
   * provider bills, since every provider renders them its own way. Pass a provider's own counter where
   * there is one (`openAIToolTokens`, `anthropicToolTokens`).
   */
  readonly toolTokens?: ToolTokenCounter;
}

/**
 * The default count of what a bridged model is sent: the o200k tokenizer on the tool's JSON as the
 * bridge passes it (`{ type: 'function', name, description, inputSchema }`), and, in each `aiSdkModel`,
 * on the whole request as the bridge passes it (the prompt and the tools, each text where it sits).
 * An estimate: each provider renders the prompt and tool definitions its own way and tokenizes with
 * its own vocabulary.
 */
export const aiSdkToolTokens: ToolTokenCounter = {
  method:
    "estimate: o200k tokenizer on the bridge's prompt and tools (JSON), each text where it sits; each provider renders and tokenizes them its own way",
  errorBound: 0.25,
  countTool: (tool) =>
    countTextTokens(JSON.stringify({ type: 'function', name: tool.name, description: tool.description, inputSchema: tool.parameters })),
};

const VERSIONS = new Set(['v2', 'v3', 'v4']);

/** The vendor of a provider id, as AG-UI's usage names it: `google.generative-ai` → `google`, `amazon-bedrock` → `amazon-bedrock`. */
const vendorOf = (provider: string) => provider.split('.')[0] || provider;

/**
 * Any model of an AI SDK provider package as a Chatwire model: Gemini and Vertex (`@ai-sdk/google`,
 * `@ai-sdk/google-vertex`), Mistral, Bedrock, Groq, xAI, DeepSeek, Azure, OpenRouter... Accepts the
 * specification versions provider packages implement: `LanguageModelV2` (AI SDK 5 packages), `V3` (AI
 * SDK 6) and `V4` (AI SDK 7). It calls the model's `doStream` with the conversation converted to the
 * specification's prompt (see `toAiSdkPrompt`) and the tools as JSON Schema function tools, and streams
 * text, reasoning and tool calls (arguments as they arrive) back as Chatwire's chunks (see
 * `readStreamParts`); usage, with cached and reasoning tokens, goes to the accounting. Nothing of the
 * `ai` package is used: only the provider package the app already set up.
 *
 * Lazy discovery, call-to-load, approvals, grants, Code Mode and MCP tools work as with any adapter:
 * they are Chatwire's own. Where a provider has its own tool search (Anthropic, OpenAI Responses), the
 * native adapters (`anthropic()`, `openaiResponses()`) can use it and stay the recommended path.
 *
 * Errors are classified like the native adapters' (`ProviderError`: rate limit, authentication, context
 * overflow...; the provider's text only in the server's report); a request is never retried by the
 * bridge (set `maxRetries` on the provider package for its own retries). Aborting the run stops the request.
 *
 * @example
 * ```ts
 * import { createGoogleGenerativeAI } from '@ai-sdk/google';
 * const google = createGoogleGenerativeAI({ apiKey: process.env.GOOGLE_GENERATIVE_AI_API_KEY });
 * const model = aiSdkModel(google('gemini-2.5-flash'));
 * ```
 */
export function aiSdkModel(model: AiSdkLanguageModel, options: AiSdkModelOptions = {}): ChatModel {
  const version = (model as { specificationVersion?: unknown } | undefined)?.specificationVersion;
  if (typeof model !== 'object' || model === null || typeof model.doStream !== 'function') {
    throw new TypeError(
      'aiSdkModel() takes a language model of an AI SDK provider package, e.g. google("gemini-2.5-flash") from @ai-sdk/google (a model id string needs its provider package).',
    );
  }
  if (typeof version !== 'string' || !VERSIONS.has(version)) {
    throw new TypeError(
      `aiSdkModel() supports the language model specifications v2, v3 and v4 (AI SDK 5, 6 and 7 provider packages); ${model.provider ?? 'this model'} implements ${String(version)}: upgrade the provider package.`,
    );
  }
  const provider = model.provider;
  const modelId = model.modelId;
  const label = `AI SDK provider ${provider} (${modelId})`;
  const providerTools = options.providerTools ?? {};
  const context = { version: model.specificationVersion, provider };
  return {
    provider: vendorOf(provider),
    model: modelId,
    toolTokens: options.toolTokens ?? {
      ...aiSdkToolTokens,
      segments: (request) => aiSdkRequestSegments(request, context, providerTools),
    },
    stream: (request: ModelRequest) => untilAborted(request.signal, streamChunks(request)),
  };

  async function* streamChunks(request: ModelRequest): AsyncGenerator<ModelChunk, void, undefined> {
    const tools = toAiSdkTools(request.tools, providerTools, context.version);
    const call: AiSdkCallOptions = {
      ...options.settings,
      prompt: toAiSdkPrompt(request.system, request.messages, context),
      ...(tools.length ? { tools, ...(options.toolChoice ? { toolChoice: options.toolChoice } : {}) } : {}),
      ...(options.providerOptions ? { providerOptions: options.providerOptions } : {}),
      includeRawChunks: false,
      abortSignal: request.signal,
    };
    let result: { readonly stream: ReadableStream<unknown> };
    try {
      result = await model.doStream(call);
    } catch (error) {
      request.signal.throwIfAborted();
      throw await providerErrorOf(error, label);
    }
    yield* readStreamParts(result.stream, { provider, usageProvider: vendorOf(provider), model: modelId, label, signal: request.signal });
  }
}
