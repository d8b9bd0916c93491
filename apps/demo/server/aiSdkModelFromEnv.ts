import { aiSdkModel, type AiSdkLanguageModel, type ChatModel } from '@chatwire/server';

/** Environment variables {@link aiSdkModelFromEnv} reads. */
export type ProviderEnv = Readonly<Record<string, string | undefined>>;

/** A provider the demo reaches through an AI SDK provider package (installed only when asked for). */
interface ProviderPackage {
  /** The npm package. */
  readonly name: string;
  /** Its version for Node 20 (AI SDK 6 generation); the latest needs Node 22. */
  readonly node20: string;
  /** The factory it exports (`createGoogleGenerativeAI`...). */
  readonly factory: string;
  /** The credentials it reads from the environment: every group is one way to sign in (any group will do). */
  readonly credentials: readonly (readonly string[])[];
  /** The model when `CHATWIRE_PROVIDER_MODEL` is unset. */
  readonly model: string;
}

/** `CHATWIRE_PROVIDER`'s values. */
export const AI_SDK_PROVIDERS: Readonly<Record<string, ProviderPackage>> = {
  google: {
    name: '@ai-sdk/google',
    node20: '3',
    factory: 'createGoogleGenerativeAI',
    credentials: [['GOOGLE_GENERATIVE_AI_API_KEY']],
    model: 'gemini-2.5-flash',
  },
  mistral: {
    name: '@ai-sdk/mistral',
    node20: '3',
    factory: 'createMistral',
    credentials: [['MISTRAL_API_KEY']],
    model: 'mistral-large-latest',
  },
  groq: { name: '@ai-sdk/groq', node20: '3', factory: 'createGroq', credentials: [['GROQ_API_KEY']], model: 'llama-3.3-70b-versatile' },
  bedrock: {
    name: '@ai-sdk/amazon-bedrock',
    node20: '4',
    factory: 'createAmazonBedrock',
    credentials: [
      ['AWS_REGION', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'],
      ['AWS_REGION', 'AWS_BEARER_TOKEN_BEDROCK'],
    ],
    model: 'amazon.nova-pro-v1:0',
  },
};

/** Why the demo cannot start on the provider the environment names (printed as is, then the demo exits). */
export class ProviderSetupError extends Error {
  override readonly name = 'ProviderSetupError';
}

const setting = (env: ProviderEnv, name: string): string | undefined => {
  const value = env[name]?.trim();
  return value ? value : undefined;
};

/** How to install a provider's package, for the error message and the docs. */
export const installCommand = (provider: ProviderPackage) =>
  `npm i -w @chatwire/demo ${provider.name}  (on Node 20: npm i -w @chatwire/demo ${provider.name}@${provider.node20})`;

/** Imports a package by name; the demo's default, tests pass their own. */
export type PackageLoader = (name: string) => Promise<unknown>;
const importPackage: PackageLoader = (name) => import(name);

/**
 * The model `CHATWIRE_PROVIDER` names (`google`, `mistral`, `groq`, `bedrock`), through its AI SDK provider
 * package and `aiSdkModel()`; `undefined` when it is unset (the demo then reads `OPENAI_API_KEY` and
 * `ANTHROPIC_API_KEY`, see `modelFromEnv`). `CHATWIRE_PROVIDER_MODEL` picks the model,
 * `CHATWIRE_PROVIDER_BASE_URL` another endpoint (a proxy, a local stand-in). The package reads its own
 * key from the environment. Throws a {@link ProviderSetupError} saying what to do when the provider is
 * unknown, its credentials are missing (checked before anything loads), or its package is not installed.
 */
export async function aiSdkModelFromEnv(env: ProviderEnv, load: PackageLoader = importPackage): Promise<ChatModel | undefined> {
  const name = setting(env, 'CHATWIRE_PROVIDER');
  if (name === undefined || setting(env, 'CHATWIRE_MODEL') === 'scripted') return undefined;
  const provider = Object.hasOwn(AI_SDK_PROVIDERS, name) ? AI_SDK_PROVIDERS[name] : undefined;
  if (!provider)
    throw new ProviderSetupError(`CHATWIRE_PROVIDER must be one of ${Object.keys(AI_SDK_PROVIDERS).join(', ')} (got '${name}').`);
  if (!provider.credentials.some((group) => group.every((variable) => setting(env, variable) !== undefined))) {
    const ways = provider.credentials.map((group) => group.join(' + ')).join(', or ');
    throw new ProviderSetupError(`CHATWIRE_PROVIDER=${name} needs ${ways} in the environment.`);
  }
  let module: unknown;
  try {
    module = await load(provider.name);
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    if (!text.includes(provider.name)) throw error; // installed, but failing to load: its own error says why
    throw new ProviderSetupError(
      `CHATWIRE_PROVIDER=${name} needs the provider package ${provider.name}, which is not installed: ${installCommand(provider)}`,
    );
  }
  const factory = (module as Record<string, unknown> | null)?.[provider.factory];
  if (typeof factory !== 'function')
    throw new ProviderSetupError(
      `${provider.name} has no ${provider.factory}(): install a version for AI SDK 5 or later (${installCommand(provider)}).`,
    );
  const baseURL = setting(env, 'CHATWIRE_PROVIDER_BASE_URL');
  const create = factory as (settings: Record<string, unknown>) => (modelId: string) => AiSdkLanguageModel;
  const region = setting(env, 'AWS_REGION');
  const settings = { ...(baseURL ? { baseURL } : {}), ...(name === 'bedrock' && region ? { region } : {}) };
  return aiSdkModel(create(settings)(setting(env, 'CHATWIRE_PROVIDER_MODEL') ?? provider.model));
}
