import { memo, useCallback, useEffect, useId, useRef, useState } from 'react';
import { MCP_SIGN_IN_CHANNEL, type InputAnswerInput, type InputRequestView } from '@chatwire/core';

/** Props of {@link LinkRequest}. */
export interface LinkRequestProps {
  /** An input request in URL mode (`request.url`); nothing renders for a form request. */
  readonly request: InputRequestView;
  /** Called with the answer (`answerInputRequest(client, answer)`, or `useChat`'s bound `answerInputRequest`). */
  readonly onAnswer: (answer: InputAnswerInput) => unknown;
  /** Opens the link. Defaults to a new tab without an opener or referrer (`window.open(url, '_blank', 'noopener,noreferrer')`). */
  readonly open?: (url: string) => void;
  className?: string;
}

const defaultOpen = (url: string) => {
  window.open(url, '_blank', 'noopener,noreferrer');
};

/** The host a link leads to, shown beside the button so the user sees where they are sent. */
const hostOf = (url: string): string => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

/**
 * A server's request to open a link, in two kinds:
 *
 * - Signing in to an MCP server (`request.connect`): a "Connect <server>" button. The authorization
 *   page opens only when the user clicks it; once the sign-in finished, the callback page (same
 *   origin) says so on the `chatwire.mcp` BroadcastChannel and this answers `accept` by itself, so
 *   the waiting run goes on. "I have signed in" answers it by hand (a sign-in finished in another
 *   browser); "Not now" declines.
 * - A URL-mode elicitation: the message, the link's host, and "Open <host>", which opens the page and
 *   answers `accept`; "Decline" declines.
 *
 * The link is never followed without the user's click, and every text is rendered as text.
 * Unstyled markup with `cw-link-request*` classes (styled by `@chatwire/ui/styles.css`).
 */
export const LinkRequest = memo(function LinkRequest({ request, onAnswer, open = defaultOpen, className }: LinkRequestProps) {
  const labelId = useId();
  const [opened, setOpened] = useState(false);
  /** The request this component answered (once each). */
  const answeredHere = useRef<string | undefined>(undefined);
  const { url, connect } = request;
  const pending = request.status === 'pending';
  const answer = useCallback(
    (action: InputAnswerInput['action']) => {
      if (answeredHere.current === request.id) return;
      answeredHere.current = request.id;
      // A request answered meanwhile (another tab, the broadcast) refuses a second answer: nothing to do.
      try {
        const result = onAnswer({ id: request.id, action, ...(action === 'accept' ? { content: {} } : {}) });
        if (result instanceof Promise) result.catch(() => {});
      } catch {
        // answered already
      }
    },
    [onAnswer, request.id],
  );

  useEffect(() => {
    if (!connect || !pending || typeof BroadcastChannel === 'undefined') return;
    const channel = new BroadcastChannel(MCP_SIGN_IN_CHANNEL);
    channel.onmessage = (event: MessageEvent<unknown>) => {
      const data = event.data as { type?: unknown; server?: unknown } | null;
      if (data?.type === 'signed-in' && data.server === connect) answer('accept');
    };
    return () => channel.close();
  }, [connect, pending, answer]);

  if (!url) return null;
  const host = hostOf(url);
  const rootClass = className ?? 'cw-link-request';
  if (!pending) {
    const done = request.status === 'accepted';
    return (
      <div className={rootClass} data-status={request.status} data-testid="link-request">
        <p className="cw-link-request-message">
          {connect ? (done ? `Connected to ${connect}.` : `Not connected to ${connect}.`) : done ? `Opened ${host}.` : 'Declined.'}
        </p>
      </div>
    );
  }
  return (
    <div className={rootClass} role="group" aria-labelledby={labelId} data-status="pending" data-testid="link-request">
      <p id={labelId} className="cw-link-request-message">
        {request.message}
      </p>
      <p className="cw-link-request-host">{connect ? `Signs you in at ${host}` : `Opens ${host}`}</p>
      <div className="cw-link-request-buttons">
        {connect && !opened ? (
          <>
            <button
              type="button"
              className="cw-link-request-open"
              onClick={() => {
                setOpened(true);
                open(url);
              }}
            >
              {`Connect ${connect}`}
            </button>
            <button type="button" onClick={() => answer('decline')}>
              Not now
            </button>
          </>
        ) : connect ? (
          <>
            <span className="cw-link-request-waiting" role="status">
              Waiting for the sign-in…
            </span>
            <button type="button" onClick={() => answer('accept')}>
              I have signed in
            </button>
            <button type="button" onClick={() => answer('cancel')}>
              Cancel
            </button>
          </>
        ) : (
          <>
            <button
              type="button"
              className="cw-link-request-open"
              onClick={() => {
                open(url);
                answer('accept');
              }}
            >
              {`Open ${host}`}
            </button>
            <button type="button" onClick={() => answer('decline')}>
              Decline
            </button>
          </>
        )}
      </div>
    </div>
  );
});
