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
export * from './viewModel/index.js';
