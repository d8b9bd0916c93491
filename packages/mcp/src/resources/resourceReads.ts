import type { Client } from '@modelcontextprotocol/client';

/** One resource a server lists, checked: what a picker shows. */
export interface McpResourceInfo {
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  /** Bytes, when the server says. */
  readonly size?: number;
}

/** A resource read, within the size bound: its text, or its bytes as base64. */
export interface McpResourceContent {
  readonly uri: string;
  readonly name: string;
  readonly mimeType: string;
  readonly text?: string;
  /** Base64 of binary contents. */
  readonly blob?: string;
  /** Size in bytes (UTF-8 for text). */
  readonly bytes: number;
}

/** One argument of a prompt. */
export interface McpPromptArgument {
  readonly name: string;
  readonly description?: string;
  readonly required: boolean;
}

/** One prompt a server lists, checked: a slash command and its small form. */
export interface McpPromptInfo {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly arguments: readonly McpPromptArgument[];
}

/** A prompt got with its arguments: its messages as text. */
export interface McpPromptMessages {
  readonly description?: string;
  readonly messages: readonly { readonly role: 'user' | 'assistant'; readonly text: string }[];
}

/** Why a read or a prompt is refused (the message is safe to show). */
export class McpResourceError extends Error {
  readonly code: 'too-large' | 'not-found' | 'invalid' | 'unsupported';
  constructor(code: McpResourceError['code'], message: string) {
    super(message);
    this.name = 'McpResourceError';
    this.code = code;
  }
}

/** The bounds on what a server's lists, reads and prompts may be. */
export interface ResourceLimits {
  /** Resources kept from one listing. Defaults to 500. */
  readonly maxResources: number;
  /** Prompts kept from one listing. Defaults to 200. */
  readonly maxPrompts: number;
  /** Arguments a prompt may declare: one with more is skipped (a form nobody fills). Defaults to 50. */
  readonly maxPromptArguments: number;
  /** The largest resource read, in bytes. Defaults to 1 MiB (1,048,576). */
  readonly maxResourceBytes: number;
  /** The longest prompt text, in characters. Defaults to 100,000. */
  readonly maxPromptChars: number;
  /** One request's time. */
  readonly timeoutMs: number;
}

/** The default bounds (see {@link ResourceLimits}). */
export const DEFAULT_RESOURCE_LIMITS: Omit<ResourceLimits, 'timeoutMs'> = {
  maxResources: 500,
  maxPrompts: 200,
  maxPromptArguments: 50,
  maxResourceBytes: 1024 * 1024,
  maxPromptChars: 100_000,
};

const MAX_PAGES = 50;
const text = (value: unknown, max: number): string | undefined => (typeof value === 'string' ? value.slice(0, max) : undefined);
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Reads every page of a list (at most 50 pages), keeping at most `max` items. */
async function pages(read: (cursor: string | undefined) => Promise<{ items: unknown[]; nextCursor?: string | undefined }>, max: number) {
  const items: unknown[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await read(cursor);
    items.push(...result.items);
    if (items.length >= max || !result.nextCursor)
      return { items: items.slice(0, max), truncated: items.length > max || !!result.nextCursor };
    cursor = result.nextCursor;
  }
  return { items: items.slice(0, max), truncated: true };
}

/** The server's resources, checked (a URI and a name each; the rest optional and cut to size). */
export async function listResources(client: Client, limits: ResourceLimits): Promise<{ resources: McpResourceInfo[]; truncated: boolean }> {
  if (!client.getServerCapabilities()?.resources) return { resources: [], truncated: false };
  const { items, truncated } = await pages(async (cursor) => {
    const result = await client.listResources(cursor ? { cursor } : {}, { timeout: limits.timeoutMs });
    return { items: result.resources as unknown[], nextCursor: result.nextCursor };
  }, limits.maxResources);
  const resources: McpResourceInfo[] = [];
  for (const item of items) {
    if (!isRecord(item) || typeof item['uri'] !== 'string' || item['uri'].length > 2_048 || typeof item['name'] !== 'string') continue;
    const title = text(item['title'], 200);
    const description = text(item['description'], 500);
    const mimeType = text(item['mimeType'], 100);
    const size = typeof item['size'] === 'number' && Number.isSafeInteger(item['size']) && item['size'] >= 0 ? item['size'] : undefined;
    resources.push({
      uri: item['uri'],
      name: item['name'].slice(0, 200),
      ...(title ? { title } : {}),
      ...(description ? { description } : {}),
      ...(mimeType ? { mimeType } : {}),
      ...(size === undefined ? {} : { size }),
    });
  }
  return { resources, truncated };
}

/**
 * Reads one resource (its first content of that URI): text as text, binary as base64, refused with
 * `too-large` past `maxResourceBytes` (a size the server declares is checked before reading; what
 * it sends, after). `name` names it for the message it is attached to.
 */
export async function readResource(client: Client, uri: string, limits: ResourceLimits): Promise<McpResourceContent> {
  if (typeof uri !== 'string' || uri.length === 0 || uri.length > 2_048)
    throw new McpResourceError('invalid', 'The resource URI is empty or over 2,048 characters.');
  const limit = limits.maxResourceBytes.toLocaleString('en-US');
  const listed = (await listResources(client, limits).catch(() => ({ resources: [] as McpResourceInfo[] }))).resources.find(
    (resource) => resource.uri === uri,
  );
  if (listed?.size !== undefined && listed.size > limits.maxResourceBytes)
    throw new McpResourceError('too-large', `The resource is ${listed.size.toLocaleString('en-US')} bytes; at most ${limit} are read.`);
  const result = await client.readResource({ uri }, { timeout: limits.timeoutMs });
  const contents = Array.isArray(result.contents) ? (result.contents as unknown[]) : [];
  const first = contents.find((item) => isRecord(item) && item['uri'] === uri) ?? contents[0];
  if (!isRecord(first)) throw new McpResourceError('not-found', 'The server returned no contents for this resource.');
  const mimeType =
    text(first['mimeType'], 100) ?? listed?.mimeType ?? (typeof first['text'] === 'string' ? 'text/plain' : 'application/octet-stream');
  const name = listed?.name ?? uri.split('/').filter(Boolean).at(-1) ?? uri;
  if (typeof first['text'] === 'string') {
    const bytes = Buffer.byteLength(first['text'], 'utf8');
    if (bytes > limits.maxResourceBytes)
      throw new McpResourceError('too-large', `The resource is ${bytes.toLocaleString('en-US')} bytes; at most ${limit} are read.`);
    return { uri, name, mimeType, text: first['text'], bytes };
  }
  if (typeof first['blob'] === 'string') {
    const blob = first['blob'];
    let padding = 0;
    while (padding < 2 && blob.charCodeAt(blob.length - 1 - padding) === 61) padding++; // '='
    const bytes = Math.floor(((blob.length - padding) * 3) / 4);
    if (bytes > limits.maxResourceBytes)
      throw new McpResourceError('too-large', `The resource is ${bytes.toLocaleString('en-US')} bytes; at most ${limit} are read.`);
    return { uri, name, mimeType, blob, bytes };
  }
  throw new McpResourceError('unsupported', 'The resource has neither text nor binary contents.');
}

/** The server's prompts, checked; a prompt declaring more than `maxPromptArguments` arguments is skipped with the reason. */
export async function listPrompts(
  client: Client,
  limits: ResourceLimits,
): Promise<{ prompts: McpPromptInfo[]; skipped: { name: string; reason: string }[]; truncated: boolean }> {
  if (!client.getServerCapabilities()?.prompts) return { prompts: [], skipped: [], truncated: false };
  const { items, truncated } = await pages(async (cursor) => {
    const result = await client.listPrompts(cursor ? { cursor } : {}, { timeout: limits.timeoutMs });
    return { items: result.prompts as unknown[], nextCursor: result.nextCursor };
  }, limits.maxPrompts);
  const prompts: McpPromptInfo[] = [];
  const skipped: { name: string; reason: string }[] = [];
  for (const item of items) {
    if (!isRecord(item) || typeof item['name'] !== 'string' || item['name'].length === 0) continue;
    const name = item['name'].slice(0, 200);
    const declared = Array.isArray(item['arguments']) ? (item['arguments'] as unknown[]) : [];
    if (declared.length > limits.maxPromptArguments) {
      skipped.push({
        name,
        reason: `it declares ${declared.length.toLocaleString('en-US')} arguments; at most ${limits.maxPromptArguments} are shown as a form`,
      });
      continue;
    }
    const args: McpPromptArgument[] = [];
    for (const argument of declared) {
      if (!isRecord(argument) || typeof argument['name'] !== 'string' || argument['name'].length === 0) continue;
      const description = text(argument['description'], 300);
      args.push({ name: argument['name'].slice(0, 100), ...(description ? { description } : {}), required: argument['required'] === true });
    }
    const title = text(item['title'], 200);
    const description = text(item['description'], 500);
    prompts.push({ name, ...(title ? { title } : {}), ...(description ? { description } : {}), arguments: args });
  }
  return { prompts, skipped, truncated };
}

/**
 * Gets a prompt with the user's arguments (only those it declares, at most `maxPromptArguments`, strings of at most 10,000
 * characters; required ones present): its messages' text, embedded text resources included, in at
 * most `maxPromptChars` characters in all.
 */
export async function getPrompt(
  client: Client,
  prompt: McpPromptInfo,
  values: Readonly<Record<string, unknown>>,
  limits: ResourceLimits,
): Promise<McpPromptMessages> {
  const given = Object.keys(values);
  if (given.length > limits.maxPromptArguments)
    throw new McpResourceError(
      'invalid',
      `${given.length.toLocaleString('en-US')} arguments were given; a prompt takes at most ${limits.maxPromptArguments}.`,
    );
  const unknown = given.find((key) => !prompt.arguments.some((argument) => argument.name === key));
  if (unknown !== undefined)
    throw new McpResourceError('invalid', `The prompt '${prompt.name}' has no argument '${unknown.slice(0, 100)}'.`);
  const args: Record<string, string> = {};
  for (const argument of prompt.arguments) {
    const value = values[argument.name];
    if (value === undefined || value === '') {
      if (argument.required) throw new McpResourceError('invalid', `The prompt '${prompt.name}' needs '${argument.name}'.`);
      continue;
    }
    if (typeof value !== 'string' || value.length > 10_000)
      throw new McpResourceError('invalid', `'${argument.name}' must be text of at most 10,000 characters.`);
    args[argument.name] = value;
  }
  const result = await client.getPrompt({ name: prompt.name, arguments: args }, { timeout: limits.timeoutMs });
  let budget = limits.maxPromptChars;
  const messages: { role: 'user' | 'assistant'; text: string }[] = [];
  for (const message of (Array.isArray(result.messages) ? result.messages : []) as unknown[]) {
    if (!isRecord(message) || !isRecord(message['content'])) continue;
    const content = message['content'];
    const body =
      typeof content['text'] === 'string'
        ? content['text']
        : isRecord(content['resource']) && typeof content['resource']['text'] === 'string'
          ? content['resource']['text']
          : undefined;
    if (body === undefined) continue;
    const kept = body.slice(0, Math.max(0, budget));
    budget -= kept.length;
    messages.push({ role: message['role'] === 'assistant' ? 'assistant' : 'user', text: kept });
    if (budget <= 0) break;
  }
  const description = text(result.description, 500);
  return { ...(description ? { description } : {}), messages };
}

/**
 * Completion for a prompt's argument, where the server offers it (`completions` capability): at
 * most 100 values of at most 200 characters each; none when it does not.
 */
export async function completeArgument(
  client: Client,
  prompt: string,
  argument: { readonly name: string; readonly value: string },
  context: Readonly<Record<string, string>>,
  limits: ResourceLimits,
): Promise<string[]> {
  if (!client.getServerCapabilities()?.completions) return [];
  const result = await client.complete(
    {
      ref: { type: 'ref/prompt', name: prompt },
      argument: { name: argument.name, value: argument.value.slice(0, 1_000) },
      ...(Object.keys(context).length ? { context: { arguments: context } } : {}),
    },
    { timeout: limits.timeoutMs },
  );
  const values = Array.isArray(result.completion?.values) ? result.completion.values : [];
  return values
    .filter((value): value is string => typeof value === 'string')
    .slice(0, 100)
    .map((value) => value.slice(0, 200));
}
