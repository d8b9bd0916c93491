import { describe, expect, it } from 'vitest';
import type { ContentPart, Event } from '@ag-ui/core';
import { createChatHandler, createScriptedModel, type ChatModel, type ModelRequest } from '@chatwire/server';
import { readEvents, runInput } from '../fixtures.js';
import { post } from '../security/securityFixtures.js';
import { CAT_PNG, catImage, CLIP_WAV, pngBytes, reportPdf, text, userWith } from './attachmentFixtures.js';

function server(limits = {}) {
  const received: ModelRequest[] = [];
  const scripted = createScriptedModel();
  const model: ChatModel = { ...scripted, stream: (request) => (received.push(request), scripted.stream(request)) };
  const handler = createChatHandler({ model, secret: 'attachments', limits });
  return { handler, received };
}

const answerOf = (events: Event[]) => events.map((event) => (event.type === 'TEXT_MESSAGE_CONTENT' ? event.delta : '')).join('');
const send = async (handler: (request: Request) => Promise<Response>, ...content: ContentPart[]) =>
  post(handler, runInput([userWith('u1', ...content)]));

describe('attachments in user messages (AG-UI 1.0 media parts)', () => {
  it('are accepted and reach the model; the scripted model names what it sees', async () => {
    const { handler, received } = server();
    const response = await send(handler, text('what is this?'), catImage);
    expect(response.status).toBe(200);
    const events = await readEvents(response);
    expect(answerOf(events)).toBe('I see an image named cat.png (image/png, 12 KB). You said: "what is this?".');
    expect(received[0]?.messages[0]).toEqual(userWith('u1', text('what is this?'), catImage));
  });

  it('several kinds and sources: data, https URL, data: URL, a provider file id', async () => {
    const { handler } = server();
    const parts: ContentPart[] = [
      catImage,
      reportPdf,
      { type: 'image', source: { type: 'url', value: 'https://example.com/pics/dog.jpg', mimeType: 'image/jpeg' } },
      { type: 'audio', source: { type: 'url', value: `data:audio/wav;base64,${CLIP_WAV}` }, metadata: { filename: 'clip.wav' } },
      { type: 'video', source: { type: 'file', value: 'file-v1', provider: 'openai' } },
    ];
    const events = await readEvents(await send(handler, ...parts));
    expect(answerOf(events)).toBe(
      'I see an image named cat.png (image/png, 12 KB), a document named report.pdf (application/pdf, 3 KB), an image named dog.jpg (image/jpeg), ' +
        'an audio clip named clip.wav (audio/wav, 2 KB) and a video with file id file-v1 (openai).',
    );
  });

  it('counts an attachment as its description, not its bytes (megabytes of base64 are never tokenized)', async () => {
    const { handler } = server();
    const big: ContentPart = {
      type: 'image',
      source: { type: 'data', value: pngBytes(2 * 1024 * 1024).toString('base64'), mimeType: 'image/png' },
    };
    const response = await send(handler, text('look'), big);
    expect(response.status).toBe(200);
    const events = await readEvents(response);
    const finished = events.at(-1) as { type: string; usage?: { inputTokens?: number }[] };
    expect(finished.type).toBe('RUN_FINISHED');
    expect(finished.usage?.[0]?.inputTokens).toBeLessThan(200);
  });

  it('an attachment over maxAttachmentBytes is 413 attachment-too-large, naming it and the limit', async () => {
    const { handler, received } = server({ maxAttachmentBytes: 10 * 1024 });
    const response = await send(handler, catImage);
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      code: 'attachment-too-large',
      error:
        "Attachment an image named cat.png (image/png) in message 'u1' is 12 KB; this server accepts at most 10 KB per attachment (`limits.maxAttachmentBytes`). Upload it and send a URL instead.",
    });
    expect(received).toHaveLength(0);
    // A data: URL counts the same.
    const asUrl = await send(handler, { type: 'image', source: { type: 'url', value: `data:image/png;base64,${CAT_PNG}` } });
    expect(asUrl.status).toBe(413);
  });

  it('more than maxAttachments in the whole conversation is 413 too-many-attachments', async () => {
    const { handler } = server({ maxAttachments: 2 });
    const response = await post(
      handler,
      runInput([userWith('u1', catImage, catImage), { id: 'a1', role: 'assistant', content: 'ok' }, userWith('u2', catImage)]),
    );
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({
      code: 'too-many-attachments',
      error: expect.stringContaining('carries 3 attachments; this server accepts at most 2'),
    });
  });

  it('refuses malformed attachments with 400 invalid-attachment, saying what is wrong', async () => {
    const { handler, received } = server();
    const cases: [ContentPart, string][] = [
      [{ type: 'image', source: { type: 'data', value: 'not base64!', mimeType: 'image/png' } }, 'not standard base64'],
      [{ type: 'image', source: { type: 'data', value: 'AAA', mimeType: 'image/png' } }, 'not standard base64'],
      [{ type: 'image', source: { type: 'data', value: CAT_PNG, mimeType: 'application/pdf' } }, 'needs a image/* MIME type'],
      [{ type: 'audio', source: { type: 'data', value: CAT_PNG, mimeType: 'png' } }, 'is not a type/subtype'],
      [{ type: 'document', source: { type: 'url', value: 'file:///etc/passwd' } }, 'must be https:, http: or a base64 data: URL'],
      [{ type: 'document', source: { type: 'url', value: 'data:text/plain,hello' } }, 'must be https:, http: or a base64 data: URL'],
      [{ type: 'document', source: { type: 'url', value: 'data:;base64,AAAA' } }, 'inline data needs a MIME type'],
      [{ type: 'document', source: { type: 'file', value: '' } }, 'names no file'],
    ];
    for (const [part, why] of cases) {
      const response = await send(handler, part);
      expect(response.status, JSON.stringify(part).slice(0, 100)).toBe(400);
      expect(await response.json()).toMatchObject({ code: 'invalid-attachment', error: expect.stringContaining(why) });
    }
    // A part that is not AG-UI at all is refused by the schema.
    const unknown = await send(handler, { type: 'image', source: { type: 'data', value: CAT_PNG } } as unknown as ContentPart);
    expect(await unknown.json()).toMatchObject({ code: 'invalid-run-input' });
    expect(received).toHaveLength(0);
  });
});
