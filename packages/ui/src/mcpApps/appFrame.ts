import { mcpAppCsp, type McpAppPolicy, type McpAppView } from '@chatwire/core';

/**
 * The frame an MCP App runs in, following the MCP Apps specification's host guidance with an opaque
 * origin instead of a second origin for a proxy: `sandbox` allows scripts (and forms, whose
 * submissions the policy then refuses) but never `allow-same-origin`, so the app has no access to
 * the page's DOM, cookies or storage (its `localStorage` and `document.cookie` throw), cannot
 * navigate the top page (`allow-top-navigation` is absent), open windows or show dialogs. Its
 * Content Security Policy is the one {@link mcpAppCsp} builds from what its server declared, put
 * first in the document's `<head>` so nothing of the app's runs before it.
 */

/** The frame's `sandbox` attribute: scripts and forms, nothing else (no same origin, no popups, no top navigation). */
export const APP_SANDBOX = 'allow-scripts allow-forms';

/** The app's document as the frame loads it (`srcdoc`), with its policy, and the policy itself. */
export interface AppDocument {
  readonly srcdoc: string;
  readonly policy: McpAppPolicy;
}

/**
 * The app's HTML with its policy as the first element of `<head>`. The HTML is parsed with
 * `DOMParser` (which runs no script and loads nothing), so the policy comes first whatever the
 * document holds before its head (comments, a `<head>` inside a comment or a script).
 */
export function appDocument(app: Pick<McpAppView, 'html' | 'csp'>): AppDocument {
  const policy = mcpAppCsp(app.csp);
  const document = new DOMParser().parseFromString(app.html, 'text/html');
  const meta = document.createElement('meta');
  meta.setAttribute('http-equiv', 'Content-Security-Policy');
  meta.setAttribute('content', policy.policy);
  document.head.insertBefore(meta, document.head.firstChild);
  return { srcdoc: `<!DOCTYPE html>${document.documentElement.outerHTML}`, policy };
}
