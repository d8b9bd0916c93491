/** A resource as the MCP handler lists it (`GET <endpoint>/resources`). */
export interface ListedResource {
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly mimeType?: string;
  readonly size?: number;
}

/** A prompt as the MCP handler lists it (`GET <endpoint>/prompts`). */
export interface ListedPrompt {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly arguments: readonly { readonly name: string; readonly description?: string; readonly required: boolean }[];
}

/** One server's resources and prompts, as the composer offers them. */
export interface ServerOffer<Item> {
  readonly server: string;
  readonly items: readonly Item[];
  /** Why the server offers nothing (not connected, not signed in...). */
  readonly error?: string;
}

/** A request the MCP handler refused, with its words (safe to show). */
class McpRequestError extends Error {}

async function call<T>(endpoint: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${endpoint}${path}`, {
    ...(body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    credentials: 'same-origin',
  });
  const json = (await response.json().catch(() => undefined)) as { error?: unknown } | undefined;
  if (!response.ok) {
    const words = typeof json?.error === 'string' ? json.error : `The request failed (HTTP ${response.status}).`;
    throw new McpRequestError(words);
  }
  return json as T;
}

/** Each server's resources. */
export async function fetchResources(endpoint: string): Promise<ServerOffer<ListedResource>[]> {
  const { servers } = await call<{ servers: { server: string; resources: ListedResource[]; error?: string }[] }>(endpoint, '/resources');
  return servers.map((entry) => ({ server: entry.server, items: entry.resources, ...(entry.error ? { error: entry.error } : {}) }));
}

/** Each server's prompts. */
export async function fetchPrompts(endpoint: string): Promise<ServerOffer<ListedPrompt>[]> {
  const { servers } = await call<{ servers: { server: string; prompts: ListedPrompt[]; error?: string }[] }>(endpoint, '/prompts');
  return servers.map((entry) => ({ server: entry.server, items: entry.prompts, ...(entry.error ? { error: entry.error } : {}) }));
}

/**
 * Reads a resource as a `File` to attach: text as `text/plain` (so every adapter maps it as a
 * document where the provider takes one), binary with its own MIME type.
 */
export async function fetchResourceFile(endpoint: string, server: string, uri: string): Promise<File> {
  const query = new URLSearchParams({ server, uri });
  const content = await call<{ name: string; mimeType: string; text?: string; blob?: string }>(
    endpoint,
    `/resources/read?${query.toString()}`,
  );
  if (content.text !== undefined) {
    const name = /\.[a-z0-9]{1,8}$/i.test(content.name) ? content.name : `${content.name}.txt`;
    return new File([content.text], name, { type: 'text/plain' });
  }
  const binary = atob(content.blob ?? '');
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new File([bytes], content.name, { type: content.mimeType });
}

/** A prompt's messages with the user's arguments, as the text of a draft (its messages' text, a blank line between). */
export async function fetchPromptText(
  endpoint: string,
  server: string,
  name: string,
  args: Readonly<Record<string, string>>,
): Promise<string> {
  const { messages } = await call<{ messages: { role: string; text: string }[] }>(endpoint, '/prompts/get', {
    server,
    name,
    arguments: args,
  });
  return messages.map((message) => message.text).join('\n\n');
}

/** Completion values for one argument (none when the server offers none). */
export async function fetchCompletions(
  endpoint: string,
  server: string,
  name: string,
  argument: { readonly name: string; readonly value: string },
  context: Readonly<Record<string, string>>,
): Promise<string[]> {
  const { values } = await call<{ values: string[] }>(endpoint, '/prompts/complete', { server, name, argument, context });
  return values;
}
