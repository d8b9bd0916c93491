import { useEffect, useRef, useState } from 'react';
import type { McpAppView as McpAppData, ToolCallPart, ToolProgress } from '@chatwire/core';
import { ToolCallCard } from '../components/ToolCallCard.js';
import { formatSize } from '../vocabulary.js';
import { APP_SANDBOX } from './appFrame.js';
import { createMcpAppHost, type McpAppHost, type McpAppState } from './mcpAppHost.js';
import type { McpAppsOptions } from './mcpAppsOptions.js';

/** Props of {@link McpAppView}. */
export interface McpAppViewProps {
  /** The call the app belongs to. */
  part: ToolCallPart;
  /** Its app (`mcpAppsByCall(message.parts).get(part.toolCallId)`). */
  app: McpAppData;
  options: McpAppsOptions;
  onApproval?: ((approvalId: string, approved: boolean) => void) | undefined;
  progress?: ToolProgress | undefined;
}

/** A link the app asked to open, waiting for the user. */
interface PendingLink {
  readonly url: string;
  readonly answer: (opened: boolean) => void;
}

/**
 * Hosts alive, by tool call: a view that unmounts gives its host back a moment later, so React's
 * Strict Mode (which mounts, unmounts and mounts again at once) keeps one host and one frame.
 */
const hosts = new Map<string, { host: McpAppHost; frame: HTMLIFrameElement; release?: ReturnType<typeof setTimeout> }>();

const preferredTheme = (): 'light' | 'dark' =>
  typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';

/**
 * An MCP App in a tool call's card: the standard card (name, state, arguments, approval) with the
 * app's sandboxed frame in it. The app is told the call's arguments as they stream and its result;
 * what it asks (tool calls, a message, model context, a link to open, its size) goes through the
 * chat, the link only once the user clicked Open. An app that does not finish starting, floods the
 * page with messages or navigates its frame is stopped, and the card shows the result instead.
 */
export function McpAppView(props: McpAppViewProps) {
  const { part, app, options } = props;
  const frame = useRef<HTMLIFrameElement>(null);
  const [state, setState] = useState<McpAppState>({ status: 'loading' });
  const [height, setHeight] = useState(160);
  const [link, setLink] = useState<PendingLink | undefined>(undefined);
  const [host, setHost] = useState<McpAppHost | undefined>(undefined);
  const maxHeight = options.maxHeight ?? 720;
  const key = `${app.toolCallId}:${app.sha256}`;
  // Callbacks read the latest options without recreating the host.
  const latest = useRef({ options, setLink, setHeight, setState, maxHeight });
  latest.current = { options, setLink, setHeight, setState, maxHeight };

  useEffect(() => {
    const element = frame.current;
    if (!element) return;
    let entry = hosts.get(key);
    if (entry && entry.frame !== element) {
      entry.host.stop('The app was shown again elsewhere.');
      hosts.delete(key);
      entry = undefined;
    }
    if (entry) clearTimeout(entry.release);
    else {
      const created = createMcpAppHost({
        app,
        chat: options.chat,
        confirmLink: (url) =>
          new Promise<boolean>((resolve) => {
            latest.current.setLink({ url, answer: resolve });
          }),
        hostContext: {
          theme: options.theme ?? preferredTheme(),
          locale: options.locale ?? (typeof navigator === 'undefined' ? 'en' : navigator.language),
          timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
          containerDimensions: { maxHeight, width: element.clientWidth || 600 },
        },
        ...(options.initTimeoutMs === undefined ? {} : { initTimeoutMs: options.initTimeoutMs }),
        ...(options.maxMessagesPerSecond === undefined ? {} : { maxMessagesPerSecond: options.maxMessagesPerSecond }),
        onSize: ({ height: asked }) => {
          if (asked !== undefined) latest.current.setHeight(Math.min(Math.max(Math.ceil(asked), 48), latest.current.maxHeight));
        },
        onState: (next) => latest.current.setState(next),
        onTraffic: (message) => latest.current.options.onTraffic?.(message),
      });
      created.attach(element);
      entry = { host: created, frame: element };
      hosts.set(key, entry);
    }
    const current = entry;
    setHost(current.host);
    return () => {
      current.release = setTimeout(() => {
        if (hosts.get(key) !== current) return;
        hosts.delete(key);
        current.host.stop('The message was removed.');
      }, 0);
    };
    // The host lives as long as the app (its call and its document); options are read through `latest`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  useEffect(() => {
    host?.update(part);
  }, [host, part]);

  useEffect(() => {
    if (options.theme) host?.setHostContext({ theme: options.theme });
  }, [host, options.theme]);

  // A link still waiting when the app goes away opens nothing.
  useEffect(() => () => link?.answer(false), [link]);

  const answerLink = (open: boolean) => {
    if (!link) return;
    // Opened here, in the click, so the browser sees the user's gesture; the app never gets a window.
    if (open) window.open(link.url, '_blank', 'noopener,noreferrer');
    link.answer(open);
    setLink(undefined);
  };
  const refused = host?.policy.refused ?? [];
  const stopped = state.status === 'stopped';

  const view = (
    <div
      className={`cw-mcp-app${app.prefersBorder === false ? '' : ' cw-mcp-app-border'}`}
      data-testid="mcp-app"
      data-server={app.server}
      data-app-state={state.status}
    >
      <p className="cw-mcp-app-head">
        <span>{`App from ${app.server}`}</span>
        <span className="cw-mcp-app-size">{formatSize(app.bytes)}</span>
      </p>
      {link ? (
        <div className="cw-mcp-app-link" role="alertdialog" aria-label="The app wants to open a link" data-testid="mcp-app-link">
          <p>
            {'The app wants to open '}
            <code>{link.url}</code>
          </p>
          <div className="cw-approval-buttons">
            <button type="button" className="cw-approve" onClick={() => answerLink(true)}>
              Open link
            </button>
            <button type="button" className="cw-deny" onClick={() => answerLink(false)}>
              Cancel
            </button>
          </div>
        </div>
      ) : null}
      <iframe
        ref={frame}
        className="cw-mcp-app-frame"
        title={`${app.server} app for ${app.tool}`}
        sandbox={APP_SANDBOX}
        referrerPolicy="no-referrer"
        data-testid="mcp-app-frame"
        hidden={stopped}
        style={{ height }}
      />
      {state.status === 'loading' ? (
        <p className="cw-mcp-app-status" role="status">
          Starting the app…
        </p>
      ) : null}
      {stopped ? (
        <p className="cw-mcp-app-status" role="status" data-testid="mcp-app-stopped">
          {state.reason}
        </p>
      ) : null}
      {refused.length > 0 ? (
        <details className="cw-mcp-app-csp" data-testid="mcp-app-csp-refused">
          <summary>{`${refused.length} ${refused.length === 1 ? 'origin' : 'origins'} the app asked for ${refused.length === 1 ? 'was' : 'were'} refused`}</summary>
          <ul>
            {refused.map((entry) => (
              <li key={`${entry.field}:${entry.value}`}>
                <code>{entry.value}</code>
                {` (${entry.field}): ${entry.reason}`}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  );
  return (
    <ToolCallCard part={part} progress={props.progress} {...(props.onApproval ? { onApproval: props.onApproval } : {})} app={view}>
      {/* The app shows the result while it runs; a stopped app leaves the card's own fields. */}
      {stopped ? undefined : <p className="cw-tool-note">Shown in the app above.</p>}
    </ToolCallCard>
  );
}
