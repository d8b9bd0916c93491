import { fileURLToPath } from 'node:url';
import { createClient } from 'redis';
import { DISCOVERY_TOOL_NAME } from '@chatwire/core';
import {
  anthropic,
  createChatHandler,
  createGrantsHandler,
  createMemoryStore,
  createMemoryThreadStore,
  createPgliteThreadStore,
  createPostgresThreadStore,
  PgliteFolderError,
  createThreadsHandler,
  createRedisStore,
  createScriptedModel,
  createToolsHandler,
  writeRunRecords,
  openaiCompatible,
  openaiResponses,
  type ChatModel,
  type ServerStore,
  type ThreadStore,
  type DiscoveryOptions,
  type FetchHandler,
} from '@chatwire/server';
import type { ScriptRule } from '@chatwire/server/testing';
import { createMcpAuthHandler, type McpServers } from '@chatwire/mcp';
import { DISCOVER_TOOLS, EXECUTE_TYPESCRIPT } from '@chatwire/code-mode';
import { browserToolDefinitions } from '../shared/catalog.ts';
import { createDemoCodeMode } from './codeMode.ts';
import { bookTable } from './bookTable.ts';
import { createServerTools } from './toolImplementations.ts';
import { pathSetting } from './pathSetting.ts';

/** Options of {@link createDemoRoutes}. */
export interface DemoRoutesOptions {
  /** The model; defaults to {@link modelFromEnv}, else the scripted model at the demo's pace. */
  readonly model?: ChatModel;
  /** Pause between streamed deltas of the scripted model. Defaults to `CHATWIRE_DELAY_MS` or 25. */
  readonly delayMs?: number;
  /** Lazy discovery settings. Defaults to discovery by name. */
  readonly discovery?: DiscoveryOptions;
  /** Where approvals and resumable runs are kept. Defaults to {@link storeFromEnv}, else in memory. */
  readonly store?: ServerStore;
  /**
   * Where threads are kept (`/api/threads`, and the history of every chat). Defaults to {@link threadsFromEnv};
   * a server that starts passes {@link openDemoThreads}'s, so a store that cannot open stops it at startup.
   */
  readonly threads?: ThreadStore;
  /**
   * Connected MCP servers whose tools join the demo's (read per request); their status is served in
   * the catalog's `servers` for the devtools' MCP view. Defaults to none.
   */
  readonly mcp?: McpServers;
  /**
   * A directory to write each run's record in (open one in devtools with "Open record"). Defaults to
   * `CHATWIRE_RUN_RECORDS` (resolved against the folder the command was started from), else none: nothing is written.
   */
  readonly runRecords?: string;
  /**
   * Sends each model call's request to the browser for the devtools' Requests view (`inspectRequests`:
   * the system prompt and every tool definition, redacted). Development only. Defaults to
   * `CHATWIRE_INSPECT_REQUESTS=on`, else off; `npm start` turns it on unless `CHATWIRE_INSPECT_REQUESTS=off`.
   */
  readonly inspectRequests?: boolean;
}

/** Environment variables {@link modelFromEnv} reads. */
export type ModelEnv = Readonly<Record<string, string | undefined>>;

const setting = (env: ModelEnv, name: string): string | undefined => {
  const value = env[name]?.trim();
  return value ? value : undefined;
};

/**
 * The real model the environment asks for, or `undefined` for the scripted model:
 * `OPENAI_API_KEY` (with `OPENAI_BASE_URL`, `OPENAI_MODEL` = `gpt-4o-mini`) selects an OpenAI
 * model, on the Chat Completions API (the default, for compatible servers too) or, with
 * `OPENAI_API=responses`, on the Responses API (`OPENAI_TOOL_SEARCH=hosted` for OpenAI's own tool
 * search, `client` for OpenAI's client-executed search answered by Chatwire's discovery; MCP servers'
 * tools in one namespace each); otherwise `ANTHROPIC_API_KEY` (with `ANTHROPIC_MODEL` = `claude-sonnet-4-5`,
 * `ANTHROPIC_TOOL_SEARCH` = `bm25` or `regex` for Anthropic's own tool search, or
 * `ANTHROPIC_TOOL_CHANGES=on` for cache-preserving tool changes) selects Anthropic. Any other value
 * of these switches throws.
 */
export function modelFromEnv(env: ModelEnv): ChatModel | undefined {
  // CHATWIRE_MODEL=scripted keeps the scripted model whatever keys are set (the e2e tests use it).
  if (setting(env, 'CHATWIRE_MODEL') === 'scripted') return undefined;
  const openaiKey = setting(env, 'OPENAI_API_KEY');
  if (openaiKey) {
    const baseURL = setting(env, 'OPENAI_BASE_URL');
    const options = { apiKey: openaiKey, model: setting(env, 'OPENAI_MODEL') ?? 'gpt-4o-mini', ...(baseURL ? { baseURL } : {}) };
    // OPENAI_API=responses: the Responses API; chat-completions (the default) for OpenAI-compatible servers.
    const api = setting(env, 'OPENAI_API') ?? 'chat-completions';
    const toolSearch = setting(env, 'OPENAI_TOOL_SEARCH');
    if (api !== 'responses' && api !== 'chat-completions')
      throw new Error(`OPENAI_API must be 'responses' or 'chat-completions' (got '${api}').`);
    if (toolSearch !== undefined && ((toolSearch !== 'hosted' && toolSearch !== 'client') || api !== 'responses')) {
      throw new Error(
        `OPENAI_TOOL_SEARCH must be 'hosted' or 'client', with OPENAI_API=responses (got '${toolSearch}'); leave it unset for Chatwire's discovery.`,
      );
    }
    // With OpenAI's tool search, MCP servers' tools go in one namespace per server.
    return api === 'responses'
      ? openaiResponses({ ...options, ...(toolSearch ? { toolSearch, namespaces: true } : {}) })
      : openaiCompatible(options);
  }
  const anthropicKey = setting(env, 'ANTHROPIC_API_KEY');
  if (!anthropicKey) return undefined;
  // ANTHROPIC_TOOL_SEARCH=bm25|regex: provider-native deferred loading (Anthropic's tool search instead of Chatwire's discovery).
  const toolSearch = setting(env, 'ANTHROPIC_TOOL_SEARCH');
  if (toolSearch !== undefined && toolSearch !== 'bm25' && toolSearch !== 'regex') {
    throw new Error(`ANTHROPIC_TOOL_SEARCH must be 'bm25' or 'regex' (got '${toolSearch}'); leave it unset for Chatwire's discovery.`);
  }
  // ANTHROPIC_TOOL_CHANGES=on: Chatwire's discovery, each discovered tool added by a mid-conversation tool change (the prompt cache survives).
  const toolChanges = setting(env, 'ANTHROPIC_TOOL_CHANGES');
  if (toolChanges !== undefined && toolChanges !== 'on' && toolChanges !== 'off')
    throw new Error(`ANTHROPIC_TOOL_CHANGES must be 'on' or 'off' (got '${toolChanges}').`);
  return anthropic({
    apiKey: anthropicKey,
    model: setting(env, 'ANTHROPIC_MODEL') ?? 'claude-sonnet-4-5',
    ...(toolSearch ? { toolSearch } : {}),
    ...(toolChanges === 'on' ? { toolChanges: true } : {}),
  });
}

/**
 * A Redis-backed store when `REDIS_URL` is set, so several demo instances share approvals and
 * resumable runs (start on one, resume or stop on another); `undefined` otherwise (in memory).
 * The connections open in the background: node-redis queues commands until they are ready.
 */
export function storeFromEnv(env: ModelEnv): ServerStore | undefined {
  const url = setting(env, 'REDIS_URL');
  if (!url) return undefined;
  const report = (error: unknown) =>
    console.error(`[demo] Redis (${new URL(url).host}): ${error instanceof Error ? error.message : String(error)}`);
  const client = createClient({ url });
  client.on('error', report);
  const subscriber = client.duplicate();
  subscriber.on('error', report);
  void client.connect().catch(report);
  void subscriber.connect().catch(report);
  return createRedisStore({ client, subscriber });
}

/** Demo scenarios on top of the scripted model's built-in behaviour. */
export const demoRules: readonly ScriptRule[] = [
  {
    // "Book a table": a server tool that asks the user for input (a form) while it runs.
    name: 'book a table',
    when: (context) => /\bbook (?:a )?table\b/i.test(context.userText) && !context.calledSinceUser.has('bookTable'),
    reply: (context) => {
      const restaurant = /\bat ([A-Z][\w' -]{1,40}?)(?:[.!?]|$)/.exec(context.userText)?.[1];
      if (context.sentTools.has('bookTable')) return { toolCalls: [{ name: 'bookTable', args: restaurant ? { restaurant } : {} }] };
      // Lazy: discover it first (by name), then this rule calls it.
      if (!context.sentTools.has(DISCOVERY_TOOL_NAME) || context.calledSinceUser.has(DISCOVERY_TOOL_NAME)) return undefined;
      const discovery = context.request.tools.find((tool) => tool.name === DISCOVERY_TOOL_NAME);
      const properties = (discovery?.parameters['properties'] ?? {}) as Record<string, unknown>;
      return {
        toolCalls: [
          { name: DISCOVERY_TOOL_NAME, args: 'query' in properties ? { query: 'select:bookTable' } : { toolNames: ['bookTable'] } },
        ],
      };
    },
  },
  {
    // Hybrid: a server tool's result feeds a browser tool.
    name: 'apply loaded preferences',
    when: (context) =>
      context.phase === 'tools' && context.results.some((result) => result.toolName === 'fetchPreferences' && !result.isError),
    reply: (context) => {
      if (context.calledSinceUser.has('applyPreferences')) return undefined;
      const loaded = context.results.find((result) => result.toolName === 'fetchPreferences');
      const preferences = JSON.parse(loaded?.content ?? '{}') as { theme?: string; banner?: string };
      return { toolCalls: [{ name: 'applyPreferences', args: { theme: preferences.theme ?? 'dark', banner: preferences.banner ?? '' } }] };
    },
  },
];

/** The names of the demo's own tools (MCP tools never take one). */
export function demoToolNames(): string[] {
  return [
    ...createServerTools().map((tool) => tool.name),
    bookTable.name,
    ...browserToolDefinitions.map((tool) => tool.name),
    EXECUTE_TYPESCRIPT,
    DISCOVER_TOOLS,
  ];
}

/** Where the demo keeps its threads by default: `apps/demo/.data/threads` (ignored by git). */
export const DEMO_THREADS_DIR = fileURLToPath(new URL('../.data/threads', import.meta.url));

/**
 * The demo's thread store: `DATABASE_URL=postgres://...` uses that PostgreSQL server; otherwise
 * PGlite in `CHATWIRE_DATA_DIR` (resolved against the folder the command was started from; default
 * {@link DEMO_THREADS_DIR}), so threads survive a restart;
 * `CHATWIRE_THREADS=memory` keeps them in memory (lost on restart).
 */
export function threadsFromEnv(env: ModelEnv): ThreadStore {
  const url = setting(env, 'DATABASE_URL');
  if (url) {
    if (!/^postgres(ql)?:\/\//.test(url)) throw new Error('DATABASE_URL must be a postgres:// or postgresql:// URL.');
    return createPostgresThreadStore({ connectionString: url });
  }
  const mode = setting(env, 'CHATWIRE_THREADS');
  if (mode === 'memory') return createMemoryThreadStore();
  if (mode !== undefined && mode !== 'pglite')
    throw new Error(`CHATWIRE_THREADS must be 'pglite' (the default) or 'memory' (got '${mode}').`);
  return createPgliteThreadStore({ dataDir: pathSetting(env, 'CHATWIRE_DATA_DIR') ?? DEMO_THREADS_DIR });
}

/** What the demo's person can do about a thread store that does not open, after the store's own reason. */
function demoThreadsAdvice(error: unknown): string {
  if (error instanceof PgliteFolderError && error.code === 'threads-folder-in-use') {
    return (
      `A second demo on ${error.folder}? Stop the other one, or start this one with CHATWIRE_DATA_DIR=<another folder> ` +
      '(threads of its own), CHATWIRE_THREADS=memory, or DATABASE_URL=postgres://... (`npm run postgres` starts one) ' +
      'so that several instances share their threads.'
    );
  }
  if (error instanceof PgliteFolderError) return `Move ${error.folder} aside, or start with CHATWIRE_DATA_DIR=<another folder>.`;
  return 'Check DATABASE_URL, or leave it unset to keep threads in PGlite.';
}

/**
 * The demo's thread store ({@link threadsFromEnv}) opened for a server that is starting: a PGlite
 * folder another process holds, one PGlite cannot open, or a PostgreSQL server that cannot be reached
 * rejects here, with the reason and what to do, so the server refuses to start instead of answering
 * every request with an error.
 */
export async function openDemoThreads(env: ModelEnv): Promise<ThreadStore> {
  const threads = threadsFromEnv(env);
  try {
    await threads.ready?.();
    return threads;
  } catch (error) {
    await threads.close().catch(() => {});
    const reason = error instanceof Error ? error.message : String(error);
    const cause =
      error instanceof Error && error.cause instanceof Error && !(error instanceof PgliteFolderError) ? ` (${error.cause.message})` : '';
    throw new Error(`${reason}${cause}\n  ${demoThreadsAdvice(error)}`, { cause: error });
  }
}

/** The demo's users may be named only so (the cookie is the visitor's own text). */
const DEMO_USER = /^[a-zA-Z0-9_-]{1,40}$/;

/**
 * The user of a demo request: the `chatwire_demo_user` cookie when it is a plain name, else
 * `demo-user`. A demo switch to try what a second user sees (their own threads, grants and MCP
 * sign-ins), not authentication: an app names its users from its own session.
 */
export function demoUserOf(request: Request): string {
  for (const pair of (request.headers.get('cookie') ?? '').split(';')) {
    const [name, value] = pair.trim().split('=');
    if (name === 'chatwire_demo_user' && value && DEMO_USER.test(value)) return value;
  }
  return 'demo-user';
}

/**
 * The demo server's routes: `/api/chat` (`POST` one AG-UI run, `GET` resumes one, `DELETE` stops
 * one), `GET /api/tools` (the catalog), `/api/grants` (list and revoke grants), `/api/threads`
 * (list, open, rename, delete threads, switch branches) and, with MCP servers,
 * `/api/mcp` (resources and prompts; the sign-in callback, connect and disconnect).
 */
export function createDemoRoutes(options: DemoRoutesOptions = {}): FetchHandler {
  const delayMs = options.delayMs ?? Number(process.env['CHATWIRE_DELAY_MS'] ?? 25);
  const model = options.model ?? modelFromEnv(process.env) ?? createScriptedModel({ delayMs, rules: demoRules });
  // Server tools run here; browser tools are defined here too (lazy flags, approvals) and run in the page.
  const serverTools = createServerTools({ delayMs: delayMs * 4 });
  // Code Mode: execute_typescript (and discover_tools) run TypeScript that calls read-only server tools in a
  // sandbox. Its calls take longer (20 times the pace, 500 ms by default) so a person sees them run in parallel.
  const codeMode = createDemoCodeMode(delayMs === 0 ? serverTools : createServerTools({ delayMs: delayMs * 20 }));
  const tools = [...serverTools, bookTable, ...browserToolDefinitions, ...codeMode.tools];
  // One store for approvals and resumable runs (grants live beside the threads, in their database).
  const store = options.store ?? storeFromEnv(process.env) ?? createMemoryStore();
  // The demo's user: the `chatwire_demo_user` cookie (a way to try a second user; no authentication), else `demo-user`.
  const userOf = demoUserOf;
  // Threads: every turn is stored, and the chat's history is read from the store (docs/threads.md). The demo's
  // servers pass the store openDemoThreads opened; otherwise it opens now, not in the first request.
  let threads = options.threads;
  if (!threads) {
    threads = threadsFromEnv(process.env);
    void threads
      .ready?.()
      .catch((error: unknown) => console.error(`[demo] threads: ${error instanceof Error ? error.message : String(error)}`));
  }
  const mcp = options.mcp;
  // MCP servers come and go (reconnects, list changes): each request reads their current tools.
  // After the Vite server closed them (a restart), the next request connects them again and waits.
  // Servers that sign each user in (`oauth`) list tools per user: the request says whose.
  const currentTools = mcp ? async (request: Request) => [...tools, ...(await mcp.loadTools(request))] : tools;
  const runRecords = options.runRecords ?? pathSetting(process.env, 'CHATWIRE_RUN_RECORDS');
  const handleChat = createChatHandler({
    model,
    tools: currentTools,
    // MCP Apps: the tools only the servers' apps may call (never the model's).
    ...(mcp ? { appTools: () => mcp.loadAppTools() } : {}),
    // A reload or a dropped connection detaches from the run; the page resumes it (docs/protocol.md).
    resumable: true,
    store,
    userOf,
    threads,
    system: `You are the Chatwire demo assistant for a shop and workspace. Use tools when they help.\n\n${codeMode.systemPrompt}`,
    ...(options.discovery ? { discovery: options.discovery } : {}),
    ...(runRecords ? { runRecords: writeRunRecords(runRecords) } : {}),
    inspectRequests: options.inspectRequests ?? process.env['CHATWIRE_INSPECT_REQUESTS'] === 'on',
  });
  // The catalog carries the MCP servers' status for the devtools (the demo is a development tool; an app
  // serves this where only its developers read it).
  const servers = mcp ? (request: Request) => mcp.catalogStatusFor(request) : undefined;
  // The discovery settings too (the defaults when none are given), with the lazy tools' schemas: the devtools' search
  // playground and discovery health run the server's search on them.
  const handleTools = createToolsHandler(currentTools, {
    counter: model.toolTokens,
    discovery: options.discovery ?? {},
    ...(servers ? { servers } : {}),
  });
  // The chat's options that say where grants live (beside the threads): the grants and threads endpoints read the same ones.
  const handleGrants = createGrantsHandler({ store, threads, userOf });
  const handleThreads = createThreadsHandler({ threads, store, userOf });
  // The MCP handler: the servers' resources and prompts (the composer's picker and slash commands) and, for
  // servers with `oauth`, the sign-in callback and the user's connections (connect, disconnect).
  const handleMcp = mcp ? createMcpAuthHandler(mcp) : undefined;
  return (request) => {
    const { pathname } = new URL(request.url);
    if (handleMcp && pathname.startsWith('/api/mcp/')) return handleMcp(request);
    if (pathname === '/api/chat') return handleChat(request);
    if (pathname === '/api/grants') return handleGrants(request);
    if (pathname === '/api/tools') return handleTools(request);
    if (pathname === '/api/threads' || pathname.startsWith('/api/threads/')) return handleThreads(request);
    return undefined;
  };
}
