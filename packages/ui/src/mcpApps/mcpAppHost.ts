import { AppBridge, type McpUiHostContext, type McpUiResourceCsp } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { CallToolResult, JSONRPCMessage } from '@modelcontextprotocol/client';
import type { McpAppView, McpAppPolicy, ToolCallPart } from '@chatwire/core';
import { APP_SANDBOX, appDocument } from './appFrame.js';
import { FrameTransport, type FrameTraffic } from './frameTransport.js';
import type { McpAppsChat, McpAppTraffic } from './mcpAppsOptions.js';

/**
 * The host side of one MCP App, without a framework: the frame (see `appFrame.ts`), the bridge
 * (ext-apps' `AppBridge`, over {@link FrameTransport}), and what the app asks of the chat. Tool
 * calls go through the Chatwire server (`callAppTool`: approvals, grants and lazy rules as for the
 * model), a message becomes a user message, model context an AG-UI context entry, and a link opens
 * only once the user said so (`confirmLink`). The call's arguments (partial ones while they stream)
 * and its result reach the app as the chat has them (`update`).
 */

/** Where an app is. */
export type McpAppState =
  { readonly status: 'loading' } | { readonly status: 'ready' } | { readonly status: 'stopped'; readonly reason: string };

/** Options of {@link createMcpAppHost}. */
export interface McpAppHostOptions {
  /** The app, as its call's `chatwire.mcp.app` data part holds it. */
  readonly app: McpAppView;
  readonly chat: McpAppsChat;
  /** Asks the user whether to open a link the app asked for; resolves whether it was opened. */
  readonly confirmLink: (url: string) => Promise<boolean>;
  /** Theme, locale, size and the rest of the host context the app reads at its start. */
  readonly hostContext?: McpUiHostContext;
  /** How long the app has to finish starting. Defaults to 10,000 ms. */
  readonly initTimeoutMs?: number;
  /** Messages read from the app per second. Defaults to 100. */
  readonly maxMessagesPerSecond?: number;
  /** The size the app asks for (its content's). */
  readonly onSize?: (size: { readonly width?: number; readonly height?: number }) => void;
  readonly onState?: (state: McpAppState) => void;
  readonly onTraffic?: (message: McpAppTraffic) => void;
}

/** One app's host (see {@link createMcpAppHost}). */
export interface McpAppHost {
  /** The frame's policy: what the server declared, what was applied and what was refused. */
  readonly policy: McpAppPolicy;
  /** Loads the app into `frame` (sandbox, policy, document) and connects the bridge. */
  attach(frame: HTMLIFrameElement): void;
  /** The call as the chat has it now: its arguments and outcome go to the app as they change. */
  update(part: ToolCallPart): void;
  /** Tells the app that host context changed (theme, size). */
  setHostContext(context: McpUiHostContext): void;
  /** What the transport counted. */
  traffic(): FrameTraffic;
  /** Ends the app: asks it to tear down, closes the bridge, empties the frame and drops its model context. */
  stop(reason: string): void;
}

/** Apps' calls in flight at once, per app; more are refused. */
const MAX_CALLS_IN_FLIGHT = 4;
/** Characters an app may keep in the model's context. */
const MAX_CONTEXT_CHARS = 16_000;

const textResult = (text: string, isError = false): CallToolResult => ({
  content: [{ type: 'text', text }],
  ...(isError ? { isError } : {}),
});
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A settled call as an app reads it: its MCP result, or why it did not run (declined, stopped). */
export type CallOutcome = { readonly result: CallToolResult } | { readonly cancelled: string };

/** The outcome of a settled call, as an app reads it; `undefined` while it is not settled. */
export function callResultOf(part: ToolCallPart): CallOutcome | undefined {
  if (part.state === 'output-available') {
    const output = part.result?.output;
    if (isRecord(output) && Array.isArray(output['content'])) return { result: output as CallToolResult };
    return {
      result: {
        content: [{ type: 'text', text: JSON.stringify(output ?? null) }],
        ...(isRecord(output) ? { structuredContent: output } : {}),
      },
    };
  }
  if (part.state === 'output-error') return { result: textResult(part.result?.error ?? 'The call failed.', true) };
  if (part.state === 'cancelled') return { cancelled: part.result?.error ?? 'The call did not run.' };
  return undefined;
}

/** The argument object of a call now (partial while it streams), if it is one. */
function argumentsOf(part: ToolCallPart): Record<string, unknown> | undefined {
  const value = part.state === 'input-streaming' ? part.partialInput : part.input;
  return isRecord(value) ? value : undefined;
}

/**
 * The host of one MCP App (see the module comment).
 *
 * @example
 * ```ts
 * const host = createMcpAppHost({ app, chat: client, confirmLink: (url) => Promise.resolve(confirm(`Open ${url}?`)) });
 * host.attach(iframe);
 * host.update(part);
 * ```
 */
export function createMcpAppHost(options: McpAppHostOptions): McpAppHost {
  const { app, chat } = options;
  const document = appDocument(app);
  const key = app.toolCallId;
  let bridge: AppBridge | undefined;
  let transport: FrameTransport | undefined;
  let frame: HTMLIFrameElement | undefined;
  let state: McpAppState = { status: 'loading' };
  let initTimer: ReturnType<typeof setTimeout> | undefined;
  let loads = 0;
  const calls = new AbortController();
  let callsInFlight = 0;
  let messageInFlight = false;
  let linkInFlight = false;
  /** What the app has been sent of the call: partial arguments (the last object sent), whole ones, the outcome. */
  let latest: ToolCallPart | undefined;
  let partialSent: unknown;
  let inputSent = false;
  let outcomeSent = false;
  let partialTimer: ReturnType<typeof setTimeout> | undefined;

  const setState = (next: McpAppState) => {
    state = next;
    options.onState?.(next);
  };
  const traffic = (direction: 'in' | 'out', message: JSONRPCMessage) => {
    if (!options.onTraffic) return;
    const method = 'method' in message ? message.method : 'error' in message ? 'error' : 'result';
    options.onTraffic({ toolCallId: key, server: app.server, direction, method, at: Date.now() });
  };

  const stop = (reason: string) => {
    if (state.status === 'stopped') return;
    setState({ status: 'stopped', reason });
    clearTimeout(initTimer);
    clearTimeout(partialTimer);
    calls.abort();
    chat.setAppContext(key, undefined);
    const closing = bridge;
    bridge = undefined;
    // Asked, not awaited: the frame goes at once (a hung app cannot hold it), so the answer may never come.
    closing?.teardownResource({ reason }, { timeout: 1_000 }).catch(() => {});
    void closing?.close().catch(() => {});
    void transport?.close();
    if (frame) {
      // An empty document in place of the app's: whatever it was running stops with it.
      frame.removeAttribute('srcdoc');
      frame.src = 'about:blank';
    }
  };

  /** Sends what the app has not been sent of the call (after it started). */
  const flush = () => {
    const part = latest;
    if (!part || !bridge || state.status !== 'ready') return;
    const args = argumentsOf(part);
    if (part.state === 'input-streaming') {
      if (args && args !== partialSent) {
        partialSent = args;
        void bridge.sendToolInputPartial({ arguments: args }).catch(() => {});
      }
      return;
    }
    if (!inputSent && part.state !== 'awaiting-input') {
      inputSent = true;
      void bridge.sendToolInput({ arguments: args ?? {} }).catch(() => {});
    }
    const outcome = outcomeSent ? undefined : callResultOf(part);
    if (!outcome) return;
    outcomeSent = true;
    if ('cancelled' in outcome) void bridge.sendToolCancelled({ reason: outcome.cancelled }).catch(() => {});
    else void bridge.sendToolResult(outcome.result).catch(() => {});
  };

  const connect = (target: HTMLIFrameElement) => {
    transport = new FrameTransport({
      frame: target,
      ...(options.maxMessagesPerSecond === undefined ? {} : { maxPerSecond: options.maxMessagesPerSecond }),
      onFlood: () => stop('The app sent too many messages and was stopped.'),
      onTraffic: traffic,
    });
    const hostContext: McpUiHostContext = {
      displayMode: 'inline',
      availableDisplayModes: ['inline'],
      platform: 'web',
      toolInfo: {
        tool: {
          name: app.toolDefinition?.name ?? app.tool,
          ...(app.toolDefinition?.description ? { description: app.toolDefinition.description } : {}),
          inputSchema: { type: 'object', ...(app.toolDefinition?.inputSchema ?? {}) } as { type: 'object' },
        },
      },
      ...options.hostContext,
    };
    const next = new AppBridge(
      null,
      { name: 'chatwire', version: '0.1.0' },
      {
        openLinks: {},
        serverTools: {},
        logging: {},
        updateModelContext: { text: {}, structuredContent: {} },
        message: { text: {} },
        sandbox: { csp: document.policy.applied as McpUiResourceCsp },
      },
      { hostContext },
    );
    next.oninitialized = () => {
      if (state.status !== 'loading') return;
      clearTimeout(initTimer);
      setState({ status: 'ready' });
      flush();
    };
    next.oncalltool = async ({ name, arguments: args }) => {
      if (callsInFlight >= MAX_CALLS_IN_FLIGHT)
        return textResult(`The app has ${MAX_CALLS_IN_FLIGHT} calls in flight; wait for one to finish.`, true);
      callsInFlight++;
      try {
        const outcome = await chat.callAppTool({ via: key, name, arguments: args ?? {}, signal: calls.signal });
        if (!outcome.ok) return textResult(outcome.error.message, true);
        const settled = callResultOf(outcome.part);
        if (!settled) return textResult('The call did not finish.', true);
        return 'cancelled' in settled ? textResult(settled.cancelled, true) : settled.result;
      } finally {
        callsInFlight--;
      }
    };
    next.onmessage = async ({ content }) => {
      const text = (Array.isArray(content) ? content : [content])
        .flatMap((block) => (isRecord(block) && block['type'] === 'text' && typeof block['text'] === 'string' ? [block['text']] : []))
        .join('\n')
        .trim();
      if (!text) throw new Error('Invalid message format: the message has no text.');
      if (messageInFlight) throw new Error('Message sending denied: the previous message is still being sent.');
      messageInFlight = true;
      try {
        // A refusal (a response in progress) comes back at once; a message that was sent is answered without waiting for the reply.
        const sent = chat.sendMessage(text);
        const outcome = await Promise.race([sent, new Promise<'accepted'>((resolve) => setTimeout(() => resolve('accepted'), 0))]);
        if (outcome !== 'accepted' && !outcome.sent) throw new Error(`Message sending denied: ${outcome.error.message}`);
        return {};
      } finally {
        messageInFlight = false;
      }
    };
    next.onopenlink = async ({ url }) => {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        throw new Error('Invalid URL');
      }
      if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new Error('Invalid URL: only http and https links open.');
      if (linkInFlight) throw new Error('Link opening denied: another link is waiting for the user.');
      linkInFlight = true;
      try {
        if (!(await options.confirmLink(parsed.href))) throw new Error('Link opening denied by user');
        return {};
      } finally {
        linkInFlight = false;
      }
    };
    next.onupdatemodelcontext = async ({ content, structuredContent }) => {
      const text =
        structuredContent !== undefined
          ? JSON.stringify(structuredContent)
          : (content ?? [])
              .flatMap((block) => (block.type === 'text' && typeof block.text === 'string' ? [block.text] : []))
              .join('\n')
              .trim();
      if (text.length > MAX_CONTEXT_CHARS) throw new Error(`Context update denied: over ${MAX_CONTEXT_CHARS} characters.`);
      chat.setAppContext(key, text ? { description: `MCP app of ${app.server}/${app.tool} (${key})`, value: text } : undefined);
      return {};
    };
    next.onsizechange = ({ width, height }) => {
      const finite = (value: number | undefined) => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined);
      options.onSize?.({
        ...(finite(width) === undefined ? {} : { width: finite(width) }),
        ...(finite(height) === undefined ? {} : { height: finite(height) }),
      });
    };
    next.onrequestteardown = () => stop('The app closed itself.');
    bridge = next;
    void next.connect(transport).catch((error: unknown) => stop(`The app could not be connected: ${String(error)}`));
  };

  return {
    policy: document.policy,
    attach(target) {
      if (frame || state.status === 'stopped') return;
      frame = target;
      target.setAttribute('sandbox', APP_SANDBOX);
      target.setAttribute('referrerpolicy', 'no-referrer');
      target.setAttribute('allow', '');
      // A second document in the frame is the app navigating itself away: it is stopped.
      target.addEventListener('load', () => {
        if (++loads > 1 && state.status !== 'stopped') stop('The app tried to leave its frame and was stopped.');
      });
      connect(target);
      initTimer = setTimeout(() => {
        if (state.status === 'loading') stop('The app did not start: it never finished its handshake with the page.');
      }, options.initTimeoutMs ?? 10_000);
      target.srcdoc = document.srcdoc;
    },
    update(part) {
      latest = part;
      if (state.status !== 'ready') return;
      if (part.state === 'input-streaming') {
        // Partial arguments go at most once per 50 ms: the newest reading wins.
        partialTimer ??= setTimeout(() => {
          partialTimer = undefined;
          flush();
        }, 50);
        return;
      }
      flush();
    },
    setHostContext(context) {
      if (state.status === 'ready') void bridge?.sendHostContextChange(context);
      else bridge?.setHostContext(context);
    },
    traffic: () => transport?.traffic ?? { received: 0, dropped: 0, invalid: 0, sent: 0 },
    stop,
  };
}
