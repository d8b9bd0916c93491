import type { ChatwireError } from '@chatwire/core';

/** A failed turn, readable, with the action its message asks for: Try again. */
export function ErrorBanner(props: { error: ChatwireError; onRetry: () => void; onDismiss: (() => void) | undefined }) {
  return (
    <div role="alert" className="error" data-code={props.error.code}>
      <p>
        <strong>Something went wrong.</strong> {props.error.message}
      </p>
      <div className="error-actions">
        <button type="button" className="action action-primary" onClick={props.onRetry}>
          Try again
        </button>
        {props.onDismiss ? (
          <button type="button" className="action" onClick={props.onDismiss}>
            Dismiss
          </button>
        ) : null}
      </div>
    </div>
  );
}
