import {
  addTodo,
  applyPreferences,
  copyToClipboard,
  getBrowserLocale,
  getViewportInfo,
  highlightMessage,
  scrollToTop,
  setAccentColor,
  setTheme,
  showBanner,
  type AccentColor,
  type BannerTone,
  type Theme,
} from '../../shared/catalog.ts';

export type { AccentColor, BannerTone, Theme };

/** A banner as the page shows it. */
export interface Banner {
  readonly text: string;
  readonly tone: BannerTone;
}

/**
 * The page state the browser tools change. The page passes its state setters; every value is
 * plain text or an enum, rendered by React as text (never as HTML).
 */
export interface BrowserToolUi {
  /** Switches the page theme. */
  setTheme(theme: Theme): void;
  /** Shows (or replaces) the banner at the top of the page. */
  showBanner(banner: Banner): void;
  /** Adds a highlighted note to the "Pinned notes" area. */
  addPinnedNote(text: string): void;
  /** Adds an item to the visible to-do list. */
  addTodo(title: string): void;
  /** Changes the page's accent colour. */
  setAccentColor(color: AccentColor): void;
  /** Scrolls the conversation back to its first message. */
  scrollToTop(): void;
}

/** Every browser definition of the catalog with its implementation, bound to the page's setters. */
export function createBrowserTools(ui: BrowserToolUi) {
  return [
    setTheme.client(({ theme }) => {
      ui.setTheme(theme);
      return { applied: true, theme };
    }),
    showBanner.client(({ text, tone }) => {
      const banner = { text, tone: tone ?? 'info' } as const;
      ui.showBanner(banner);
      return { shown: true, ...banner };
    }),
    highlightMessage.client(({ text }) => {
      ui.addPinnedNote(text);
      return { pinned: true, text };
    }),
    applyPreferences.client(({ theme, banner }) => {
      ui.setTheme(theme);
      if (banner.trim()) ui.showBanner({ text: banner, tone: 'info' });
      return { applied: true, theme, banner };
    }),
    addTodo.client(({ title }) => {
      ui.addTodo(title);
      return { added: true, title };
    }),
    setAccentColor.client(({ color }) => {
      ui.setAccentColor(color);
      return { applied: true, color };
    }),
    scrollToTop.client(() => {
      ui.scrollToTop();
      return { scrolled: true };
    }),
    getViewportInfo.client(() => {
      const media = (query: string) => (typeof matchMedia === 'function' ? matchMedia(query).matches : false);
      return {
        width: window.innerWidth,
        height: window.innerHeight,
        devicePixelRatio: window.devicePixelRatio,
        prefersDark: media('(prefers-color-scheme: dark)'),
        prefersReducedMotion: media('(prefers-reduced-motion: reduce)'),
      };
    }),
    getBrowserLocale.client(() => {
      const options = Intl.DateTimeFormat().resolvedOptions();
      return {
        language: navigator.language,
        languages: navigator.languages.slice(0, 3),
        timeZone: options.timeZone,
        localTime: new Date().toLocaleString(navigator.language, { dateStyle: 'medium', timeStyle: 'short' }),
      };
    }),
    copyToClipboard.client(async ({ text }) => {
      try {
        await navigator.clipboard.writeText(text);
        return { copied: true, characters: text.length };
      } catch (error) {
        // Clipboard access needs a secure context and focus; report instead of failing the call.
        return { copied: false, reason: error instanceof Error ? error.message : 'Clipboard unavailable' };
      }
    }),
  ] as const;
}
