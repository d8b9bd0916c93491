import { createHash } from 'node:crypto';
import type { McpAppCsp } from '@chatwire/core';

/** The MCP Apps extension's identifier: what Chatwire advertises in its capabilities' `extensions`. */
export const MCP_APPS_EXTENSION = 'io.modelcontextprotocol/ui';
/** The MIME type of an MCP App's HTML. */
export const MCP_APP_MIME_TYPE = 'text/html;profile=mcp-app';
/** The default of `maxAppBytes`: an app's HTML may weigh 5 MiB. */
export const DEFAULT_MAX_APP_BYTES = 5 * 1024 * 1024;

/** Origins per CSP field kept from a server's declaration, and characters per origin (the browser judges them). */
const MAX_CSP_ORIGINS = 64;
const MAX_CSP_CHARS = 300;

/** An app's resource as read and checked: what the `chatwire.mcp.app` event carries of it. */
export interface AppResource {
  readonly html: string;
  readonly bytes: number;
  readonly sha256: string;
  readonly csp?: McpAppCsp;
  readonly prefersBorder?: boolean;
}

/** A `resources/read` result, as loosely as the SDK returns it. */
export interface ReadResult {
  readonly contents: readonly {
    readonly uri?: string;
    readonly mimeType?: string;
    readonly text?: string;
    readonly blob?: string;
    readonly _meta?: unknown;
  }[];
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

/** The CSP fields a server declared, kept when they are lists of strings (bounded); the browser narrows them. */
function declaredCsp(value: unknown): McpAppCsp | undefined {
  if (!isRecord(value)) return undefined;
  const out: Record<string, string[]> = {};
  for (const field of ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const) {
    const list = value[field];
    if (!Array.isArray(list)) continue;
    out[field] = list
      .filter((entry): entry is string => typeof entry === 'string')
      .slice(0, MAX_CSP_ORIGINS)
      .map((entry) => entry.slice(0, MAX_CSP_CHARS));
  }
  return Object.keys(out).length > 0 ? (out as McpAppCsp) : undefined;
}

/** Whether a MIME type is an MCP App's (`text/html;profile=mcp-app`, in any case and spacing). */
function isAppMimeType(mimeType: string | undefined): boolean {
  const compact = (mimeType ?? '').toLowerCase().replace(/\s+/g, '');
  return compact.startsWith('text/html') && compact.split(';').includes('profile=mcp-app');
}

/**
 * Checks what a server answered to `resources/read` for an app: one content for the URI, of the MCP
 * App MIME type, text (or base64 `blob`) of at most `maxBytes` in UTF-8. Throws an `Error` whose
 * message says what is wrong, for the card and the server's status.
 */
function checkAppResource(uri: string, result: ReadResult, maxBytes: number): AppResource {
  const content = result.contents.find((item) => item.uri === uri) ?? result.contents[0];
  if (!content) throw new Error(`the server returned no content for ${uri}`);
  if (!isAppMimeType(content.mimeType))
    throw new Error(
      `${uri} is not an MCP App (its mimeType is ${JSON.stringify(content.mimeType ?? 'none').slice(0, 100)}, not ${MCP_APP_MIME_TYPE})`,
    );
  let html: string;
  if (typeof content.text === 'string') html = content.text;
  else if (typeof content.blob === 'string') {
    // base64 is 4/3 of its bytes: a blob longer than that is refused before it is decoded.
    if (content.blob.length > Math.ceil((maxBytes * 4) / 3) + 4)
      throw new Error(`${uri} is over ${megabytes(maxBytes)} (maxAppBytes): about ${megabytes((content.blob.length * 3) / 4)}`);
    html = Buffer.from(content.blob, 'base64').toString('utf8');
  } else throw new Error(`${uri} has neither text nor blob`);
  const bytes = Buffer.byteLength(html, 'utf8');
  if (bytes > maxBytes) throw new Error(`${uri} is ${megabytes(bytes)}, over the ${megabytes(maxBytes)} an app may weigh (maxAppBytes)`);
  const ui = isRecord(content._meta) && isRecord(content._meta['ui']) ? content._meta['ui'] : {};
  const csp = declaredCsp(ui['csp']);
  return {
    html,
    bytes,
    sha256: createHash('sha256').update(html).digest('hex'),
    ...(csp ? { csp } : {}),
    ...(typeof ui['prefersBorder'] === 'boolean' ? { prefersBorder: ui['prefersBorder'] } : {}),
  };
}

/**
 * One server's app resources: each read once from that server (concurrent asks share the read) and
 * kept, a refusal included (a resource that closed the connection is not read again, so a server
 * cannot make its own connection drop on every call). Cleared when the server's tool list changes.
 */
export class AppResources {
  readonly #read: (uri: string) => Promise<ReadResult>;
  readonly #maxBytes: number;
  readonly #kept = new Map<string, Promise<AppResource>>();

  /**
   * @param read Reads a resource from this server (and this server only).
   * @param maxBytes The largest app accepted, in bytes of UTF-8.
   */
  constructor(read: (uri: string) => Promise<ReadResult>, maxBytes: number) {
    this.#read = read;
    this.#maxBytes = maxBytes;
  }

  /** The app at `uri`, read and checked (once); rejects with what is wrong. */
  get(uri: string): Promise<AppResource> {
    let kept = this.#kept.get(uri);
    if (!kept) {
      kept = this.#read(uri).then(
        (result) => checkAppResource(uri, result, this.#maxBytes),
        (error: unknown) => {
          throw new Error(`${uri} could not be read: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
        },
      );
      // Kept either way: a failure is an answer too.
      kept.catch(() => {});
      this.#kept.set(uri, kept);
    }
    return kept;
  }

  /** Forgets what was read (the tool list changed: the resources may have too). Refusals stay. */
  refresh(): void {
    for (const [uri, kept] of this.#kept) {
      kept.then(
        () => this.#kept.get(uri) === kept && this.#kept.delete(uri),
        () => {},
      );
    }
  }
}
