import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ContentPart, Message } from '@ag-ui/core';
import { anthropic, chat, openaiCompatible, type ChatModel } from '@chatwire/server';
import { collect } from '../fixtures.js';
import { CAT_PNG, CLIP_WAV, NOTES_TXT, REPORT_PDF, catImage, reportPdf, text, userWith } from '../attachments/attachmentFixtures.js';
import { fixture, startProviderServer, textOf, type ProviderServer } from './providerServer.js';

let provider: ProviderServer;
beforeEach(async () => {
  provider = await startProviderServer();
});
afterEach(async () => {
  await provider.close();
});

/** Sends one user message with these parts through `model` and returns the messages of the provider request. */
async function sent(model: ChatModel, answer: string, ...content: ContentPart[]) {
  provider.respond({ body: answer });
  const events = await collect(chat({ model, messages: [userWith('u1', ...content)], threadId: 't', secret: 's', onError: () => {} }));
  expect(events.at(-1)?.type).toBe('RUN_FINISHED');
  expect(textOf(events)).toBe('Hello from the test provider.');
  return (provider.requests.at(-1)!.body as { messages: Message[] }).messages;
}

describe('openaiCompatible sends attachments as Chat Completions content parts', () => {
  const model = () => openaiCompatible({ baseURL: `${provider.url}/v1`, apiKey: 'sk-test', model: 'gpt-4o-mini' });
  const answer = () => fixture('openai', 'text.sse');

  it('images (inline as a data: URL, by URL with detail), WAV audio, PDF documents (inline and by file id)', async () => {
    const messages = await sent(
      model(),
      answer(),
      text('compare these'),
      catImage,
      {
        type: 'image',
        source: { type: 'url', value: 'https://example.com/dog.jpg', mimeType: 'image/jpeg' },
        metadata: { detail: 'high' },
      },
      { type: 'audio', source: { type: 'data', value: CLIP_WAV, mimeType: 'audio/wav' } },
      reportPdf,
      { type: 'document', source: { type: 'file', value: 'file-abc123', provider: 'openai' } },
    );
    expect(messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'compare these' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${CAT_PNG}` } },
          { type: 'image_url', image_url: { url: 'https://example.com/dog.jpg', detail: 'high' } },
          { type: 'input_audio', input_audio: { data: CLIP_WAV, format: 'wav' } },
          { type: 'file', file: { filename: 'report.pdf', file_data: `data:application/pdf;base64,${REPORT_PDF}` } },
          { type: 'file', file: { file_id: 'file-abc123' } },
        ],
      },
    ]);
  });

  it('what the API cannot take becomes a text note in its place, and the request still goes out', async () => {
    const messages = await sent(
      model(),
      answer(),
      { type: 'video', source: { type: 'url', value: 'https://example.com/clip.mp4', mimeType: 'video/mp4' } },
      { type: 'audio', source: { type: 'url', value: 'https://example.com/talk.mp3', mimeType: 'audio/mpeg' } },
      { type: 'document', source: { type: 'url', value: 'https://example.com/report.pdf', mimeType: 'application/pdf' } },
      { type: 'image', source: { type: 'file', value: 'file_011', provider: 'anthropic' } },
    );
    expect(messages).toEqual([
      {
        role: 'user',
        content: [
          {
            type: 'text',
            text: '[Attachment not sent to the model: a video named clip.mp4 (video/mp4). The Chat Completions API does not take video.]',
          },
          {
            type: 'text',
            text: '[Attachment not sent to the model: an audio clip named talk.mp3 (audio/mpeg). The Chat Completions API takes audio only as inline WAV or MP3 data.]',
          },
          {
            type: 'text',
            text: '[Attachment not sent to the model: a document named report.pdf (application/pdf). The Chat Completions API takes documents inline or as an OpenAI file id, not as URLs.]',
          },
          {
            type: 'text',
            text: '[Attachment not sent to the model: an image with file id file_011 (anthropic). Its file id was issued by anthropic, not OpenAI.]',
          },
        ],
      },
    ]);
  });

  it('a text-only message stays a string, as before', async () => {
    const messages = await sent(model(), answer(), text('just '), text('text'));
    expect(messages).toEqual([{ role: 'user', content: 'just text' }]);
  });
});

describe('anthropic sends attachments as Messages API blocks', () => {
  const model = () => anthropic({ baseURL: provider.url, apiKey: 'sk-ant-test', model: 'claude-sonnet-4-5' });
  const answer = () => fixture('anthropic', 'text.sse');

  it('images (base64, url, file), PDF documents with their title, plain-text documents as a text source', async () => {
    const messages = await sent(
      model(),
      answer(),
      text('compare these'),
      catImage,
      { type: 'image', source: { type: 'url', value: `data:image/png;base64,${CAT_PNG}` } },
      { type: 'image', source: { type: 'url', value: 'https://example.com/dog.jpg' } },
      { type: 'image', source: { type: 'file', value: 'file_011CNha8iCJcU1wXNR6q4V8w' } },
      reportPdf,
      { type: 'document', source: { type: 'url', value: 'https://example.com/paper.pdf', mimeType: 'application/pdf' } },
      { type: 'document', source: { type: 'data', value: NOTES_TXT, mimeType: 'text/plain' }, metadata: { filename: 'notes.txt' } },
    );
    expect(messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'compare these' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: CAT_PNG } },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: CAT_PNG } },
          { type: 'image', source: { type: 'url', url: 'https://example.com/dog.jpg' } },
          { type: 'image', source: { type: 'file', file_id: 'file_011CNha8iCJcU1wXNR6q4V8w' } },
          { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: REPORT_PDF }, title: 'report.pdf' },
          { type: 'document', source: { type: 'url', url: 'https://example.com/paper.pdf' }, title: 'paper.pdf' },
          {
            type: 'document',
            source: { type: 'text', media_type: 'text/plain', data: 'Meeting notes: ship on Friday.\n' },
            title: 'notes.txt',
          },
        ],
      },
    ]);
  });

  it('audio, video and other formats become a text note in their place', async () => {
    const messages = await sent(
      model(),
      answer(),
      { type: 'audio', source: { type: 'data', value: CLIP_WAV, mimeType: 'audio/wav' }, metadata: { filename: 'clip.wav' } },
      { type: 'video', source: { type: 'file', value: 'file_v' } },
      { type: 'image', source: { type: 'data', value: CAT_PNG, mimeType: 'image/tiff' }, metadata: { filename: 'scan.tiff' } },
      {
        type: 'document',
        source: { type: 'data', value: REPORT_PDF, mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
        metadata: { filename: 'a.docx' },
      },
      { type: 'document', source: { type: 'file', value: 'file-abc', provider: 'openai' } },
      text('thoughts?'),
    );
    expect(messages).toEqual([
      {
        role: 'user',
        content: [
          {
            type: 'text',
            text: '[Attachment not sent to the model: an audio clip named clip.wav (audio/wav, 2 KB). The Messages API does not take audio.]',
          },
          { type: 'text', text: '[Attachment not sent to the model: a video with file id file_v. The Messages API does not take video.]' },
          {
            type: 'text',
            text: '[Attachment not sent to the model: an image named scan.tiff (image/tiff, 12 KB). The Messages API takes JPEG, PNG, GIF and WEBP images.]',
          },
          {
            type: 'text',
            text: '[Attachment not sent to the model: a document named a.docx (application/vnd.openxmlformats-officedocument.wordprocessingml.document, 3 KB). The Messages API takes PDF and plain-text documents.]',
          },
          {
            type: 'text',
            text: '[Attachment not sent to the model: a document with file id file-abc (openai). Its file id was issued by openai, not Anthropic.]',
          },
          { type: 'text', text: 'thoughts?' },
        ],
      },
    ]);
  });
});
