/*
 * The part of the AI SDK's language model specification (`LanguageModelV2`, `V3` and `V4` in
 * `@ai-sdk/provider`) the bridge reads and writes, declared structurally. Why not import the types:
 * `LanguageModelV4` exists only in `@ai-sdk/provider` 4 (which needs Node 22), and apps on AI SDK 5 or 6
 * have 2.x or 3.x installed; a declaration file that imported them would not compile against those.
 * These shapes are what the three versions share, so a model of any of them is accepted as it is (the
 * server's tests check `@ai-sdk/google` and `@ai-sdk/mistral` models and the AI SDK's mock model
 * against them). Stream parts are read at run time, field by field, as untrusted data.
 */

/** JSON as the specification's provider options and metadata carry it. */
export type AiSdkJsonValue = null | string | number | boolean | AiSdkJsonObject | readonly AiSdkJsonValue[];

/** A JSON object (`JSONObject` in the specification). */
export interface AiSdkJsonObject {
  readonly [key: string]: AiSdkJsonValue | undefined;
}

/**
 * Provider options, by provider key then option name (`SharedV3ProviderOptions`), e.g.
 * `{ google: { thinkingConfig: { includeThoughts: true } } }`. The provider package documents its own.
 */
export type AiSdkProviderOptions = Readonly<Record<string, AiSdkJsonObject>>;

/** Which tool the model must use (`LanguageModelV3ToolChoice`): any, none, at least one, or the named one. */
export type AiSdkToolChoice =
  | { readonly type: 'auto' }
  | { readonly type: 'none' }
  | { readonly type: 'required' }
  | { readonly type: 'tool'; readonly toolName: string };

/**
 * A provider-defined tool as a provider package's factory makes it (`google.tools.googleSearch({})`,
 * `anthropic.tools.webSearch_20250305({})`, `openai.tools.webSearch()`): its id
 * (`<provider>.<tool>`) and arguments. The bridge sends it as the specification's provider tool under
 * the name it is given.
 */
export interface AiSdkProviderTool {
  readonly id: `${string}.${string}`;
  readonly args?: Readonly<Record<string, unknown>>;
}

/** The call settings the bridge passes through unchanged (`LanguageModelV3CallOptions`); each is the provider's to honour. */
export interface AiSdkCallSettings {
  readonly maxOutputTokens?: number;
  readonly temperature?: number;
  readonly topP?: number;
  readonly topK?: number;
  readonly stopSequences?: string[];
  readonly presencePenalty?: number;
  readonly frequencyPenalty?: number;
  readonly seed?: number;
  /** Extra HTTP headers of each request. */
  readonly headers?: Record<string, string | undefined>;
  /** Reasoning effort; `LanguageModelV4` only (older versions ignore it: use provider options there). */
  readonly reasoning?: 'provider-default' | 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | 'max';
}

/** The call options the bridge passes to `doStream`: the prompt, tools and settings (see `toAiSdkPrompt`). */
export interface AiSdkCallOptions extends AiSdkCallSettings {
  readonly prompt: readonly unknown[];
  readonly tools?: readonly unknown[];
  readonly toolChoice?: AiSdkToolChoice;
  readonly providerOptions?: AiSdkProviderOptions;
  readonly includeRawChunks?: boolean;
  readonly abortSignal?: AbortSignal;
}

/**
 * A language model of an AI SDK provider package (`LanguageModelV2`, `V3` or `V4` of
 * `@ai-sdk/provider`): what `google('gemini-2.5-flash')`, `mistral('mistral-large-latest')`,
 * `bedrock(...)`, `groq(...)` return. Only streaming is used.
 */
export interface AiSdkLanguageModel {
  readonly specificationVersion: 'v2' | 'v3' | 'v4';
  /** The provider's id, e.g. `google.generative-ai`, `mistral.chat`. */
  readonly provider: string;
  readonly modelId: string;
  doStream(options: AiSdkCallOptions): PromiseLike<{ readonly stream: ReadableStream<unknown> }>;
}
