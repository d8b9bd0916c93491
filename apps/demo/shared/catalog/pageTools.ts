import { z } from 'zod';
import { toolDefinition } from '@chatwire/core';
import { accentColorSchema, bannerToneSchema, themeSchema } from './pageSchemas.ts';

/* The demo catalog: Browser and page tools (implemented in the browser). */

export const setTheme = toolDefinition({
  name: 'setTheme',
  description: 'Switches this page between the light and dark colour themes.',
  inputSchema: z.object({
    theme: themeSchema.describe('The theme to switch to.'),
  }),
});

export const showBanner = toolDefinition({
  name: 'showBanner',
  description: 'Shows a one-line banner at the top of this page, replacing any banner already shown.',
  inputSchema: z.object({
    text: z.string().min(1).max(200).describe('Banner text, plain text only.'),
    tone: bannerToneSchema.optional().describe('Colour of the banner. Defaults to info.'),
  }),
});

export const highlightMessage = toolDefinition({
  name: 'highlightMessage',
  description: 'Pins a highlighted note in the "Pinned notes" area of this page so the user keeps it in view. Asks the user first.',
  needsApproval: true,
  inputSchema: z.object({
    text: z.string().min(1).max(300).describe('Text of the note to pin.'),
  }),
});

export const applyPreferences = toolDefinition({
  name: 'applyPreferences',
  description:
    'Applies saved preferences to this page: sets the theme and shows the welcome banner. Pass the values returned by fetchPreferences.',
  inputSchema: z.object({
    theme: themeSchema.describe('Theme from the saved preferences.'),
    banner: z.string().max(200).describe('Welcome banner text from the saved preferences.'),
  }),
});

export const addTodo = toolDefinition({
  name: 'addTodo',
  description: 'Adds an item to the to-do list shown on this page.',
  lazy: true,
  inputSchema: z.object({
    title: z.string().min(1).max(120).describe('The to-do item.'),
  }),
});

export const setAccentColor = toolDefinition({
  name: 'setAccentColor',
  description: 'Changes the accent colour of this page (buttons, links and highlights).',
  lazy: true,
  inputSchema: z.object({
    color: accentColorSchema.describe('The accent colour.'),
  }),
});

export const scrollToTop = toolDefinition({
  name: 'scrollToTop',
  description: 'Scrolls the conversation back to its first message.',
  lazy: true,
  inputSchema: z.object({}),
});

export const getViewportInfo = toolDefinition({
  name: 'getViewportInfo',
  description:
    'Reads the size of the browser window and whether the user prefers dark mode or reduced motion. Useful before changing the layout or theme.',
  lazy: true,
  inputSchema: z.object({}),
});

export const getBrowserLocale = toolDefinition({
  name: 'getBrowserLocale',
  description:
    "The user's language, time zone and local time as reported by their browser. Use it to format dates and to pick a sensible currency before calling convertCurrency.",
  lazy: true,
  inputSchema: z.object({}),
});

export const copyToClipboard = toolDefinition({
  name: 'copyToClipboard',
  description: "Copies text to the user's clipboard, e.g. an order id or a tracking number.",
  lazy: true,
  inputSchema: z.object({
    text: z.string().min(1).max(2000).describe('The text to copy.'),
  }),
});
