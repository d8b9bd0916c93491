import type { DevtoolsView } from '@chatwire/core/shared';

/**
 * Code Mode's tab in the devtools panel: list it in `<ChatwireDevtools views={[codeModeDevtoolsView]} />`.
 * The tab shows once a model call of the chat was sent Code Mode: the APIs the code can call (eager,
 * discovered, not discovered yet) as of each model call, where each was discovered, the turn's executions,
 * and the tokens lazy tools saved. Plain data: what builds the view loads when the panel opens, so an app's
 * initial load (and a production build, where the panel renders nothing) carries only these few bytes.
 *
 * @example
 * ```tsx
 * import { codeModeDevtoolsView } from '@chatwire/code-mode/client';
 * import { ChatwireDevtools } from '@chatwire/devtools';
 *
 * <ChatwireDevtools client={chat.client} catalogUrl="/api/tools" views={[codeModeDevtoolsView]} />;
 * ```
 */
export const codeModeDevtoolsView: DevtoolsView = {
  id: 'code-mode',
  label: 'Code Mode',
  load: () => import('./devtools/codeModeView.js').then((module) => module.codeModeViewModule),
};
