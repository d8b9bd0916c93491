import type { ReactElement } from 'react';
import { ChatwireDevtools as Devtools, type ChatwireDevtoolsProps } from './ChatwireDevtools.js';

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

/**
 * The devtools panel, in development builds only: in a production build this is a component that
 * renders nothing, and the panel's code is left out of the bundle. Import `@chatwire/devtools/production`
 * to ship it on purpose.
 *
 * @example
 * ```tsx
 * <ChatwireDevtools client={chat.client} catalogUrl="/api/tools" />
 * ```
 */
export const ChatwireDevtools: (props: ChatwireDevtoolsProps) => ReactElement | null =
  process.env.NODE_ENV !== 'development' ? () => null : Devtools;
