import { describe, expect, it } from 'vitest';
import type { ContentPart, Event } from '@ag-ui/core';
import { createChatHandler, createScriptedModel } from '@chatwire/server';
import { readEvents, runInput } from '../fixtures.js';
import { post } from './securityFixtures.js';
import { CAT_PNG, text, userWith } from '../attachments/attachmentFixtures.js';

const handler = createChatHandler({ model: createScriptedModel(), secret: 'file-urls' });
const send = (...content: ContentPart[]) => post(handler, runInput([userWith('u1', ...content)]));
const answerOf = (events: Event[]) => events.map((event) => (event.type === 'TEXT_MESSAGE_CONTENT' ? event.delta : '')).join('');

/** URLs a browser reads as `javascript:` (the WHATWG parser strips leading C0 controls and spaces, and tabs and newlines anywhere). */
const BYPASSES = [
  ' javascript:alert(1)',
  'java\tscript:alert(1)',
  '\x01javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  '\njavascript:alert(1)',
  'vbscript:msgbox(1)',
  'file:///etc/passwd',
];

describe('attachment URLs, read as browsers read them', () => {
  it('refuses every URL a browser would read as another scheme, with a 400 before anything runs', async () => {
    for (const url of BYPASSES) {
      const response = await send(text('look'), { type: 'image', source: { type: 'url', value: url, mimeType: 'image/png' } });
      expect(response.status, JSON.stringify(url)).toBe(400);
      expect(await response.json(), JSON.stringify(url)).toMatchObject({ code: 'invalid-attachment' });
    }
  });

  it('accepts http(s) URLs and plain base64 data: URLs, and refuses a data: URL the inline reader does not take', async () => {
    for (const url of ['https://example.com/cat.png', 'http://example.com/cat.png', `data:image/png;base64,${CAT_PNG}`]) {
      const response = await send(text('look'), { type: 'image', source: { type: 'url', value: url } });
      expect(response.status, url.slice(0, 40)).toBe(200);
      await response.body?.cancel();
    }
    const spaced = await send(text('look'), { type: 'image', source: { type: 'url', value: ` data:image/png;base64,${CAT_PNG}` } });
    expect(spaced.status).toBe(400);
  });
});

describe('file names with bidi controls', () => {
  it('are echoed in their real order: the model never sees or repeats a right-to-left override', async () => {
    // Shows as "invoice_exe.pdf" when the override is obeyed; it is an .exe.
    const name = 'invoice_\u202Efdp.exe';
    const response = await send(text('what is this?'), {
      type: 'image',
      source: { type: 'data', value: CAT_PNG, mimeType: 'image/png' },
      metadata: { filename: name },
    });
    expect(response.status).toBe(200);
    const answer = answerOf(await readEvents(response));
    expect(answer).toContain('invoice_fdp.exe');
    expect(answer).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/);
  });
});
