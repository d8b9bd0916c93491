import type { ChatwireError } from '@chatwire/core';

/** A failed turn, readable, with Try again (and Dismiss when `onDismiss` is given). */
export function ChatError(props: { error: ChatwireError; onRetry?: () => void; onDismiss?: (() => void) | undefined }) {
  return (
    <div role="alert" className="cw-error" data-code={props.error.code}>
      <p>
        <strong>Something went wrong.</strong> {props.error.message}
      </p>
      <div className="cw-error-actions">
        {props.onRetry ? (
          <button type="button" className="cw-action cw-action-primary" onClick={props.onRetry}>
            Try again
          </button>
        ) : null}
        {props.onDismiss ? (
          <button type="button" className="cw-action" onClick={props.onDismiss}>
            Dismiss
          </button>
        ) : null}
      </div>
    </div>
  );
}
