import type { TurnRecord } from '../model/chatState.js';
import type { ChatMessage } from '../model/messages.js';

/*
 * The extension point of the devtools panel: a package contributes a view (a tab) as plain data plus
 * a loader, the way `customEvents` contributes a reducer. The app lists the views it wants on the
 * panel (`<ChatwireDevtools views={[...]} />`); the panel, itself loaded on first open, loads each
 * view's module then, asks it whether its tab shows for this chat, and renders what it returns:
 * plain data (text, cards, tables, a choice), never markup, so a view cannot inject HTML and needs no
 * React of its own. The types live here, beside inspection, so a package can offer a view with a
 * dependency on core alone, and devtools depends on core alone.
 */

/**
 * A view a package contributes to the devtools panel, as an app lists it: plain data plus a loader.
 *
 * @example
 * ```ts
 * const cacheView: DevtoolsView = {
 *   id: 'cache',
 *   label: 'Cache',
 *   load: () => import('./cacheView.js').then((module) => module.cacheViewModule),
 * };
 * ```
 */
export interface DevtoolsView {
  /** Its tab's id, unique on the panel (the panel's own are `tools`, `tokens`, `timeline`, `events`, `mcp`). */
  readonly id: string;
  /** Its tab's label. */
  readonly label: string;
  /** Loads what builds the view, typically with a dynamic `import()`, so the app's initial load never carries it. */
  readonly load: () => Promise<DevtoolsViewModule>;
}

/** What a view's loader gives the panel: when its tab shows, and what it shows. Both are pure and called often. */
export interface DevtoolsViewModule {
  /** Whether the tab shows for this chat (for example: once a model call used the feature). */
  available(chat: DevtoolsViewChat): boolean;
  /** The view's content for the turn the panel shows, top to bottom. */
  render(input: DevtoolsViewInput): readonly DevtoolsBlock[];
}

/** The chat as the panel shows it: live, or a saved record it opened. */
export interface DevtoolsViewChat {
  readonly messages: readonly ChatMessage[];
  readonly turns: readonly TurnRecord[];
}

/** What a view renders from. */
export interface DevtoolsViewInput extends DevtoolsViewChat {
  /** The turn the panel's selector shows (1-based; 0 before the first turn). */
  readonly turn: number;
  /** The user's picks in the view's `choice` blocks, by key (absent until the user picks). */
  readonly choices: Readonly<Record<string, string>>;
}

/** How a text is set off: `good` and `bad` for outcomes, `muted` for what is secondary, `code` for names. */
export type DevtoolsTone = 'good' | 'bad' | 'warn' | 'muted' | 'code';

/**
 * Marks for tests and styles: `testId` becomes `data-testid`, each `data` entry a `data-<key>` attribute
 * (keys of lowercase letters, digits and dashes; others are left out).
 */
export interface DevtoolsMarks {
  readonly testId?: string;
  readonly data?: Readonly<Record<string, string | number>>;
}

/** A short text in a row of chips (counts, states). */
export interface DevtoolsChip extends DevtoolsMarks {
  readonly text: string;
}

/** A figure on a card: a label, the figure, a note under it. */
export interface DevtoolsCard extends DevtoolsMarks {
  readonly label: string;
  readonly value: string;
  readonly note?: string;
  readonly tone?: DevtoolsTone;
}

/** A table column. */
export interface DevtoolsColumn {
  readonly title: string;
  /** Shown on hover over the title. */
  readonly hint?: string;
  /** Right-aligned, tabular figures. */
  readonly numeric?: boolean;
}

/** A table cell: a text, or a text with a tone. */
export type DevtoolsCell = string | { readonly text: string; readonly tone?: DevtoolsTone };

/** A table row. */
export interface DevtoolsRow extends DevtoolsMarks {
  /** Its cells, one per column. */
  readonly cells: readonly DevtoolsCell[];
}

/** One block of a view. Every string is rendered as text. */
export type DevtoolsBlock =
  | { readonly type: 'chips'; readonly label: string; readonly chips: readonly DevtoolsChip[] }
  | {
      readonly type: 'choice';
      /** The key the user's pick is passed back under (`DevtoolsViewInput.choices`). */
      readonly key: string;
      readonly label: string;
      readonly value: string;
      readonly options: readonly { readonly value: string; readonly label: string }[];
    }
  | { readonly type: 'cards'; readonly cards: readonly DevtoolsCard[] }
  | {
      readonly type: 'table';
      /** Its accessible name. */
      readonly label: string;
      /** A heading shown above it. Defaults to none. */
      readonly heading?: string;
      readonly columns: readonly DevtoolsColumn[];
      readonly rows: readonly DevtoolsRow[];
    }
  | { readonly type: 'note'; readonly text: string }
  | { readonly type: 'empty'; readonly text: string };
