import { z } from 'zod';

/* The page settings the browser tools change, and the account's preferences name. */

/** The page themes (see {@link Theme}). */
export const themeSchema = z.enum(['light', 'dark']);
/** The banner tones (see {@link BannerTone}). */
export const bannerToneSchema = z.enum(['info', 'success', 'warning']);
/** The accent colours (see {@link AccentColor}). */
export const accentColorSchema = z.enum(['indigo', 'teal', 'rose', 'amber']);

/** The page themes `setTheme` and `applyPreferences` accept. */
export type Theme = z.infer<typeof themeSchema>;
/** The banner tones `showBanner` accepts. */
export type BannerTone = z.infer<typeof bannerToneSchema>;
/** The accent colours `setAccentColor` accepts. */
export type AccentColor = z.infer<typeof accentColorSchema>;
