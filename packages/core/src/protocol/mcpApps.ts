/**
 * MCP Apps (the `io.modelcontextprotocol/ui` extension) on the Chatwire wire: the event that brings a
 * tool's app to the browser, and the run input that makes a call for an app. docs/protocol.md shows
 * each with JSON.
 */

/**
 * The `CUSTOM` event that brings an MCP server's app for a tool call (from `@chatwire/mcp`): a data
 * part envelope `{ id: toolCallId, data: McpAppView }`, sent as soon as the model starts a call of a
 * tool whose server declared an app (`_meta.ui.resourceUri`), before its arguments stream. Every
 * `ChatClient` keeps it as a `data` part of this name, one per call, without the app declaring it.
 */
export const MCP_APP_EVENT = 'chatwire.mcp.app';

/** The origins an app's HTML may reach, as its server declared them (`_meta.ui.csp`). */
export interface McpAppCsp {
  /** `fetch`, XHR and WebSocket targets (`connect-src`). */
  readonly connectDomains?: readonly string[];
  /** Scripts, styles, images, fonts and media (`script-src`, `style-src`, `img-src`, `font-src`, `media-src`). */
  readonly resourceDomains?: readonly string[];
  /** Nested frames (`frame-src`). */
  readonly frameDomains?: readonly string[];
  /** `<base href>` targets (`base-uri`). */
  readonly baseUriDomains?: readonly string[];
}

/** The `data` of an {@link MCP_APP_EVENT} part: one tool call's app, as its server serves it. */
export interface McpAppView {
  /** The call the app shows. */
  readonly toolCallId: string;
  /** The MCP server (its name in the configuration) that declared the app and serves its tools. */
  readonly server: string;
  /** The tool's name as that server lists it (the app calls tools by these names). */
  readonly tool: string;
  /** The `ui://` resource the HTML was read from. */
  readonly resourceUri: string;
  /** The app's HTML document (`text/html;profile=mcp-app`), never inserted into the page itself. */
  readonly html: string;
  /** Its size in bytes (UTF-8). */
  readonly bytes: number;
  /** SHA-256 of the HTML, hex. */
  readonly sha256: string;
  /** What the server declared for the app's Content Security Policy (the browser narrows it; see `mcpAppCsp`). */
  readonly csp?: McpAppCsp;
  /** The server's wish for a border around the app (`_meta.ui.prefersBorder`). */
  readonly prefersBorder?: boolean;
  /** The tool as the server lists it (name, description, input schema), for the app's host context. */
  readonly toolDefinition?: {
    readonly name: string;
    readonly description?: string;
    readonly inputSchema?: Readonly<Record<string, unknown>>;
  };
}

/**
 * What a run input carries in `forwardedProps.chatwire.appCall` when an app shown in the chat calls a
 * tool (`ChatClient.callAppTool`): the server makes the call itself, with the approvals, grants and
 * lazy rules of the model's calls, and finishes the run without calling the model.
 */
export interface McpAppCallRequest {
  /** The id the call gets: {@link APP_CALL_ID_PREFIX}, `_` and hex (the browser picks it, the server checks it is new). */
  readonly toolCallId: string;
  /** The call whose app asks: the app belongs to that call's MCP server, and may call only that server's tools. */
  readonly via: string;
  /** The tool's name as its MCP server lists it. */
  readonly name: string;
  readonly arguments: Readonly<Record<string, unknown>>;
}

/** The prefix of the ids of calls an app made (`appcall_3f9c2a7b1e0d4c58`): the model is never sent them. */
export const APP_CALL_ID_PREFIX = 'appcall';

/** Whether a tool call id is one of an app's calls (see {@link APP_CALL_ID_PREFIX}). */
export function isAppCallId(toolCallId: string): boolean {
  return toolCallId.startsWith(`${APP_CALL_ID_PREFIX}_`);
}
