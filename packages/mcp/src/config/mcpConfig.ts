import { z } from 'zod';

/** Whether a server's tools are withheld until discovered: `auto` decides by {@link LazyRule}. */
export type LazyMode = 'auto' | boolean;

/** Options every server entry may carry besides its transport. */
export interface McpServerOptions {
  /**
   * Prefix of its tools' names (`prefix__tool`). Defaults to the server's name; `''` for no prefix.
   * The result is sanitised to `^[a-zA-Z0-9_-]{1,64}$`.
   */
  readonly prefix?: string;
  /** Only these MCP tool names (as the server lists them). Defaults to every tool. */
  readonly include?: readonly string[];
  /** Never these MCP tool names. Defaults to none. */
  readonly exclude?: readonly string[];
  /** `auto` (default): deferred by the lazy rule; `true`: always deferred; `false`: always sent. */
  readonly lazy?: LazyMode;
  /**
   * Whether this server's annotations are believed: a trusted server's tools run without approval
   * unless the app's policy says otherwise. Defaults to `false`.
   */
  readonly trusted?: boolean;
  /** Milliseconds to connect and initialize. Defaults to 10,000. */
  readonly connectTimeoutMs?: number;
  /** Milliseconds one tool call may take (waiting for the user's elicitation answer included). Defaults to 60,000. */
  readonly toolTimeoutMs?: number;
  /** Milliseconds an elicitation waits for the user's answer before the call fails. Defaults to 50,000. */
  readonly elicitationTimeoutMs?: number;
  /** Most tools kept from this server (the rest are dropped, and the server's status says so). Defaults to 1,000. */
  readonly maxTools?: number;
  /** One-line description of the server for catalogs. Defaults to the server's `instructions` (first line), else its name and version. */
  readonly description?: string;
  /**
   * How the protocol revision is agreed: `auto` asks the server for the 2026-07-28 revision first
   * (`server/discover`) and falls back to the 2025 `initialize` handshake, which 2025-era servers
   * answer at once (a stdio server that stays silent costs 3 s first); `legacy` goes straight to
   * `initialize`. Defaults to `auto`.
   */
  readonly versionNegotiation?: 'auto' | 'legacy';
  /**
   * MCP Apps: `false` turns this server's apps off. Chatwire then does not advertise the extension to
   * it (a server may list plain tools instead), reads no `ui://` resource from it, and leaves out its
   * tools only apps may call. Defaults to `true`.
   */
  readonly apps?: boolean;
}

/** A server started as a child process, speaking MCP over its stdin/stdout. */
export interface McpStdioServerConfig extends McpServerOptions {
  readonly command: string;
  readonly args?: readonly string[];
  /** The child's environment besides PATH, HOME and the like: nothing else of this process's is inherited. */
  readonly env?: Readonly<Record<string, string>>;
  /** Working directory of the child. Defaults to this process's. */
  readonly cwd?: string;
}

/** A server reached over HTTP: Streamable HTTP, falling back to the older HTTP+SSE transport. */
export interface McpHttpServerConfig extends McpServerOptions {
  readonly url: string;
  /** Headers sent with every request (for example `Authorization`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** `streamable-http`, `sse`, or `auto` (default: Streamable HTTP, then SSE when that fails). */
  readonly transport?: 'auto' | 'streamable-http' | 'sse';
  /**
   * Each user signs in to this server (OAuth 2.1 with PKCE, discovered from its 401): every user gets
   * a connection of their own with their own tokens, which stay on the server (`McpServersOptions.auth`
   * says where). `true`, or `{ scope }` to ask for a scope. Defaults to `false`: `headers` only.
   */
  readonly oauth?: boolean | { readonly scope?: string };
}

/** One server entry of `mcpServers`. */
export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig;

/** The `mcpServers` JSON shape Claude Desktop, Cursor and VS Code use. */
export interface McpServersConfig {
  readonly mcpServers: Readonly<Record<string, McpServerConfig>>;
}

/** A configuration that cannot be used: the message names the server and the field. */
export class McpConfigError extends Error {
  readonly code = 'invalid-mcp-config';
  constructor(message: string) {
    super(message);
    this.name = 'McpConfigError';
  }
}

const SERVER_NAME = /^[a-zA-Z0-9_.-]{1,64}$/;
const stringRecord = z.record(z.string(), z.string());
const names = z.array(z.string().min(1));
const positiveMs = z
  .number()
  .int()
  .positive()
  .max(24 * 60 * 60_000);
const options = {
  prefix: z.string().max(64).optional(),
  include: names.optional(),
  exclude: names.optional(),
  lazy: z.union([z.literal('auto'), z.boolean()]).optional(),
  trusted: z.boolean().optional(),
  connectTimeoutMs: positiveMs.optional(),
  toolTimeoutMs: positiveMs.optional(),
  elicitationTimeoutMs: positiveMs.optional(),
  maxTools: z.number().int().positive().max(100_000).optional(),
  description: z.string().max(500).optional(),
  versionNegotiation: z.enum(['auto', 'legacy']).optional(),
  apps: z.boolean().optional(),
  // Fields other clients write (VS Code's `type`, Claude's `disabled`) are accepted and ignored.
  type: z.string().optional(),
  disabled: z.boolean().optional(),
};
const stdioSchema = z
  .object({
    command: z.string().min(1),
    args: z.array(z.string()).optional(),
    env: stringRecord.optional(),
    cwd: z.string().min(1).optional(),
    ...options,
  })
  .strict();
const httpSchema = z
  .object({
    url: z.string().min(1),
    headers: stringRecord.optional(),
    transport: z.enum(['auto', 'streamable-http', 'sse']).optional(),
    oauth: z.union([z.boolean(), z.object({ scope: z.string().min(1).max(1_000).optional() }).strict()]).optional(),
    ...options,
  })
  .strict();

function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message}`).join('; ');
}

/** Checks one server entry; the error names the server and what is wrong. */
export function parseMcpServerConfig(name: string, value: unknown): McpServerConfig {
  if (!SERVER_NAME.test(name))
    throw new McpConfigError(
      `MCP server name ${JSON.stringify(name.slice(0, 80))} is not allowed: use 1-64 letters, digits, '_', '.' or '-'.`,
    );
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new McpConfigError(`MCP server '${name}': its entry must be an object with \`command\` (stdio) or \`url\` (HTTP).`);
  const entry = value as Record<string, unknown>;
  if ('command' in entry && 'url' in entry)
    throw new McpConfigError(`MCP server '${name}': give either \`command\` (stdio) or \`url\` (HTTP), not both.`);
  if (!('command' in entry) && !('url' in entry))
    throw new McpConfigError(`MCP server '${name}': needs \`command\` (stdio) or \`url\` (HTTP).`);
  const schema = 'command' in entry ? stdioSchema : httpSchema;
  const parsed = schema.safeParse(entry);
  if (!parsed.success) throw new McpConfigError(`MCP server '${name}': ${describeIssues(parsed.error)}.`);
  if ('url' in entry) {
    let url: URL;
    try {
      url = new URL(String(entry['url']));
    } catch {
      throw new McpConfigError(`MCP server '${name}': url ${JSON.stringify(String(entry['url']).slice(0, 200))} is not a URL.`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new McpConfigError(`MCP server '${name}': url must be http: or https: (got ${url.protocol}).`);
  }
  const { type: _type, disabled: _disabled, ...config } = parsed.data as Record<string, unknown>;
  return Object.freeze(config) as unknown as McpServerConfig;
}

/**
 * Checks a configuration in the `mcpServers` shape (an object, or its JSON text). Entries marked
 * `"disabled": true` are left out. Throws {@link McpConfigError} naming the problem.
 *
 * @example
 * ```ts
 * const config = parseMcpConfig(await readFile('mcp.json', 'utf8'));
 * ```
 */
export function parseMcpConfig(input: unknown, source = 'the MCP configuration'): McpServersConfig {
  let value = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input) as unknown;
    } catch (error) {
      throw new McpConfigError(`${source} is not valid JSON: ${error instanceof Error ? error.message : String(error)}.`);
    }
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new McpConfigError(`${source} must be a JSON object with an \`mcpServers\` object.`);
  const servers = (value as { mcpServers?: unknown }).mcpServers;
  if (!servers || typeof servers !== 'object' || Array.isArray(servers))
    throw new McpConfigError(`${source} needs an \`mcpServers\` object (name -> { command, args, env } or { url, headers }).`);
  const result: Record<string, McpServerConfig> = {};
  for (const [name, entry] of Object.entries(servers as Record<string, unknown>)) {
    if (entry && typeof entry === 'object' && (entry as { disabled?: unknown }).disabled === true) continue;
    try {
      result[name] = parseMcpServerConfig(name, entry);
    } catch (error) {
      if (error instanceof McpConfigError) throw new McpConfigError(`${source}: ${error.message}`);
      throw error;
    }
  }
  return Object.freeze({ mcpServers: Object.freeze(result) });
}

/** Whether an entry starts a child process. */
export const isStdioConfig = (config: McpServerConfig): config is McpStdioServerConfig => 'command' in config;

/** Whether a server signs each user in (`oauth` set on an HTTP entry). */
export function isOAuthConfig(
  config: McpServerConfig,
): config is McpHttpServerConfig & { readonly oauth: true | { readonly scope?: string } } {
  return !isStdioConfig(config) && config.oauth !== undefined && config.oauth !== false;
}
