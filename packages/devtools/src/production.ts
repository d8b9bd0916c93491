/**
 * The devtools panel in every build, production included (opt in by importing this subpath).
 *
 * @example
 * ```tsx
 * const Devtools = lazy(() => import('@chatwire/devtools/production').then((m) => ({ default: m.ChatwireDevtools })));
 * ```
 */
export { ChatwireDevtools } from './ChatwireDevtools.js';
export type { ChatwireDevtoolsProps } from './ChatwireDevtools.js';
export type {
  DevtoolsBlock,
  DevtoolsCard,
  DevtoolsCell,
  DevtoolsChip,
  DevtoolsColumn,
  DevtoolsMarks,
  DevtoolsRow,
  DevtoolsTone,
  DevtoolsView,
  DevtoolsViewChat,
  DevtoolsViewInput,
  DevtoolsViewModule,
} from '@chatwire/core/shared';
export * from './viewModel/index.js';
