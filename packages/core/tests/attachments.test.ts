import { describe, expect, it, vi } from 'vitest';
import { ChatClient, messageText, type ChatMessage, type FilePart } from '@chatwire/core';
import { toWireMessages } from '@chatwire/core/shared';
import { fromWireMessages } from '@chatwire/core/wire';
import { clientOver, run, sse, sseResponse, waitFor } from './fixtures.js';

const answer = sse([run.started, ...run.text('m1', 'seen'), run.finished]);

/** `n` bytes of a repeating pattern, so base64 of them is checked against Node's own encoder. */
const bytesOf = (n: number) => Uint8Array.from({ length: n }, (_, index) => (index * 7 + 3) % 256);
const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

type WireUser = {
  role: string;
  content:
    | string
    | { type: string; text?: string; source?: { type: string; value: string; mimeType?: string }; metadata?: { filename?: string } }[];
};
const sentMessages = (requests: { body: unknown }[], index = 0) => (requests[index]!.body as { messages: WireUser[] }).messages;

describe('attachments: sendMessage({ text, files })', () => {
  it('sends files as AG-UI 1.0 media parts of the user message, chosen by MIME type, and shows them as file parts', async () => {
    const png = bytesOf(300);
    const pdf = bytesOf(1000);
    const { client, requests } = clientOver(() => sseResponse(answer));
    const result = await client.sendMessage({
      text: 'What is in these?',
      files: [
        new File([png], 'photo.png', { type: 'image/png' }),
        new Blob([pdf], { type: 'application/pdf' }),
        { url: 'https://cdn.example/clip.mp3', filename: 'clip.mp3' },
        { url: 'https://cdn.example/movie.webm' },
      ],
    });
    expect(result).toEqual({ sent: true });

    const user = client.getSnapshot().messages[0]!;
    expect(messageText(user)).toBe('What is in these?');
    expect(user.parts).toEqual([
      { type: 'text', text: 'What is in these?', state: 'done' },
      { type: 'file', mimeType: 'image/png', url: `data:image/png;base64,${base64(png)}`, filename: 'photo.png', size: 300 },
      { type: 'file', mimeType: 'application/pdf', url: `data:application/pdf;base64,${base64(pdf)}`, size: 1000 },
      { type: 'file', mimeType: 'audio/mpeg', url: 'https://cdn.example/clip.mp3', filename: 'clip.mp3' },
      { type: 'file', mimeType: 'video/webm', url: 'https://cdn.example/movie.webm' },
    ]);

    expect(sentMessages(requests)[0]).toEqual({
      id: user.id,
      role: 'user',
      content: [
        { type: 'text', text: 'What is in these?' },
        { type: 'image', source: { type: 'data', value: base64(png), mimeType: 'image/png' }, metadata: { filename: 'photo.png' } },
        { type: 'document', source: { type: 'data', value: base64(pdf), mimeType: 'application/pdf' } },
        {
          type: 'audio',
          source: { type: 'url', value: 'https://cdn.example/clip.mp3', mimeType: 'audio/mpeg' },
          metadata: { filename: 'clip.mp3' },
        },
        { type: 'video', source: { type: 'url', value: 'https://cdn.example/movie.webm', mimeType: 'video/webm' } },
      ],
    });
  });

  it('takes files without text (a FileList-like list too): the message has file parts only, the content no text part', async () => {
    const { client, requests } = clientOver(() => sseResponse(answer));
    const list = { 0: new File(['a,b\n1,2\n'], 'data.csv', { type: 'text/csv' }), length: 1 } as unknown as FileList;
    expect(await client.sendMessage({ files: list })).toEqual({ sent: true });
    const user = client.getSnapshot().messages[0]!;
    expect(user.parts.map((part) => part.type)).toEqual(['file']);
    expect(sentMessages(requests)[0]!.content).toEqual([
      {
        type: 'document',
        source: { type: 'data', value: Buffer.from('a,b\n1,2\n').toString('base64'), mimeType: 'text/csv' },
        metadata: { filename: 'data.csv' },
      },
    ]);
    // Plain text messages keep plain string content.
    await client.sendMessage('and this?');
    expect(sentMessages(requests, 1)[2]).toMatchObject({ role: 'user', content: 'and this?' });
  });

  it('hands files to uploadFile instead, concurrently, and sends the URLs it returns', async () => {
    const uploads: { name: string; signal: AbortSignal }[] = [];
    let inFlight = 0;
    let most = 0;
    // Each upload is held until both have started: concurrent uploads overlap, sequential ones would never finish.
    let bothStarted!: () => void;
    const both = new Promise<void>((resolve) => (bothStarted = resolve));
    const uploadFile = vi.fn(async (file: Blob, { signal }: { signal: AbortSignal }) => {
      uploads.push({ name: (file as File).name, signal });
      inFlight++;
      most = Math.max(most, inFlight);
      if (uploads.length === 2) bothStarted();
      await both;
      inFlight--;
      return { url: `https://files.example/${(file as File).name}` };
    });
    const { client, requests } = clientOver(() => sseResponse(answer), { attachments: { uploadFile } });
    await client.sendMessage({
      text: 'two photos',
      files: [new File(['x'], 'a.jpg', { type: 'image/jpeg' }), new File(['y'], 'b.jpg', { type: 'image/jpeg' })],
    });
    expect(uploads.map((upload) => upload.name)).toEqual(['a.jpg', 'b.jpg']);
    expect(most).toBe(2);
    expect(client.getSnapshot().messages[0]!.parts.slice(1)).toEqual([
      { type: 'file', mimeType: 'image/jpeg', url: 'https://files.example/a.jpg', filename: 'a.jpg', size: 1 },
      { type: 'file', mimeType: 'image/jpeg', url: 'https://files.example/b.jpg', filename: 'b.jpg', size: 1 },
    ]);
    const content = sentMessages(requests)[0]!.content as { source: unknown }[];
    expect(content.slice(1).map((part) => part.source)).toEqual([
      { type: 'url', value: 'https://files.example/a.jpg', mimeType: 'image/jpeg' },
      { type: 'url', value: 'https://files.example/b.jpg', mimeType: 'image/jpeg' },
    ]);
  });

  it('refuses, changing nothing, a file over the limit, files over the message limit, bad inputs and failed uploads', async () => {
    const cases: [string, Partial<ConstructorParameters<typeof ChatClient>[0]>, unknown[], string, RegExp][] = [
      [
        'a file over the default 2 MiB',
        {},
        [new File([new Uint8Array(2 * 1024 * 1024 + 1)], 'big.bin')],
        'file-too-large',
        /'big\.bin' is 2\.0 MiB: files may be at most 2\.0 MiB/,
      ],
      [
        'a file over maxFileBytes',
        { attachments: { maxFileBytes: 100 } },
        [new Blob([new Uint8Array(101)])],
        'file-too-large',
        /file 1 is 101 bytes: files may be at most 100 bytes \(attachments\.maxFileBytes\)/,
      ],
      [
        'files over maxMessageBytes (as sent, base64)',
        { attachments: { maxMessageBytes: 1000 } },
        [new Blob([new Uint8Array(400)]), new Blob([new Uint8Array(400)])],
        'file-too-large',
        /come to 1\.0 KiB as sent: one message may carry at most 1000 bytes \(attachments\.maxMessageBytes\)/,
      ],
      ['something that is not a file', {}, [{ name: 'x' }], 'invalid-file', /Attachment 1 is neither a File or Blob nor \{ url \}/],
      ['a javascript: URL', {}, [{ url: 'javascript:alert(1)' }], 'invalid-file', /cannot fetch \(javascript:\)/],
      [
        'a failed upload',
        { attachments: { uploadFile: async () => Promise.reject(new Error('storage is full')) } },
        [new File(['x'], 'a.png')],
        'upload-failed',
        /Uploading 'a\.png' failed: storage is full/,
      ],
      [
        'an upload without a URL',
        { attachments: { uploadFile: async () => ({}) as { url: string } } },
        [new File(['x'], 'a.png')],
        'upload-failed',
        /returned no URL for 'a\.png'/,
      ],
    ];
    for (const [name, options, files, code, message] of cases) {
      const onWarning = vi.fn();
      const { client, requests } = clientOver(() => sseResponse(answer), { ...options, onWarning });
      const listener = vi.fn();
      client.subscribe(listener);
      const before = client.getSnapshot();
      const result = await client.sendMessage({ text: 'look', files: files as File[] });
      expect(result, name).toMatchObject({ sent: false, error: { code, message: expect.stringMatching(message) } });
      expect(client.getSnapshot(), name).toBe(before);
      expect(listener, name).not.toHaveBeenCalled();
      expect(requests, name).toHaveLength(0);
      expect(onWarning, name).toHaveBeenCalledWith(expect.stringContaining('nothing was sent'));
      // The chat is free again: a plain message goes out.
      expect(await client.sendMessage('plain'), name).toEqual({ sent: true });
    }
  });

  it('accepts a file of exactly the default limit (2 MiB, 2.7 MiB as sent)', async () => {
    const { client, requests } = clientOver(() => sseResponse(answer));
    expect(await client.sendMessage({ files: [new File([new Uint8Array(2 * 1024 * 1024)], 'edge.bin')] })).toEqual({ sent: true });
    const content = sentMessages(requests)[0]!.content as { source: { value: string } }[];
    expect(content[0]!.source.value).toHaveLength(4 * Math.ceil((2 * 1024 * 1024) / 3));
  });

  it('is busy while files upload, and stop() then aborts the upload and sends nothing', async () => {
    let uploadSignal: AbortSignal | undefined;
    let uploadStarted!: () => void;
    const uploading = new Promise<void>((resolve) => (uploadStarted = resolve));
    const uploadFile = (_file: Blob, { signal }: { signal: AbortSignal }) =>
      new Promise<{ url: string }>((_resolve, reject) => {
        uploadSignal = signal;
        uploadStarted();
        signal.addEventListener('abort', () => reject(new Error('aborted')));
      });
    const { client, requests } = clientOver(() => sseResponse(answer), { attachments: { uploadFile } });
    const sending = client.sendMessage({ text: 'slow', files: [new File(['x'], 'a.png', { type: 'image/png' })] });
    await uploading;
    expect(await client.sendMessage('meanwhile')).toMatchObject({ sent: false, error: { code: 'busy' } });
    const before = client.getSnapshot();
    client.stop();
    expect(await sending).toMatchObject({ sent: false, error: { code: 'cancelled' } });
    expect(uploadSignal!.aborted).toBe(true);
    expect(client.getSnapshot()).toBe(before);
    expect(client.getSnapshot().messages).toHaveLength(0);
    expect(requests).toHaveLength(0);
  });

  it('a continuation that started while files uploaded (an approval answered meanwhile) wins: the send is refused as busy, nothing lost', async () => {
    let finishUpload!: (value: { url: string }) => void;
    let uploadStarted!: () => void;
    const uploading = new Promise<void>((resolve) => (uploadStarted = resolve));
    const uploadFile = () =>
      new Promise<{ url: string }>((resolve) => {
        finishUpload = resolve;
        uploadStarted();
      });
    let call = 0;
    const approvalTurn = sse([
      run.started,
      { type: 'TOOL_CALL_START', toolCallId: 'c1', toolCallName: 'refundOrder', parentMessageId: 'a1' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'c1', delta: '{}' },
      { type: 'TOOL_CALL_END', toolCallId: 'c1' },
      { ...run.finished, outcome: { type: 'interrupt', interrupts: [{ id: 'ap1', reason: 'tool_approval', toolCallId: 'c1' }] } },
    ]);
    let releaseContinuation: () => void = () => {};
    const continuation = new Promise<void>((resolve) => (releaseContinuation = resolve));
    let continuationAsked!: () => void;
    const continuationSent = new Promise<void>((resolve) => (continuationAsked = resolve));
    const { client, requests } = clientOver(
      async () => {
        if (call++ === 0) return sseResponse(approvalTurn);
        continuationAsked();
        await continuation;
        return sseResponse(answer);
      },
      { attachments: { uploadFile } },
    );
    await client.sendMessage('refund it');
    expect(client.getSnapshot().status).toBe('ready');
    const sending = client.sendMessage({ text: 'and this receipt', files: [new File(['x'], 'r.png', { type: 'image/png' })] });
    client.addToolApprovalResponse({ id: 'ap1', approved: true });
    // Both are under way: the upload (its reader is loaded on first use) and the continuation's request.
    await Promise.all([uploading, continuationSent]);
    expect(requests).toHaveLength(2);
    finishUpload({ url: 'https://files.example/r.png' });
    expect(await sending).toMatchObject({ sent: false, error: { code: 'busy' } });
    releaseContinuation();
    await waitFor(client, (snapshot) => snapshot.status === 'ready');
    expect(client.getSnapshot().messages.filter((message) => message.role === 'user')).toHaveLength(1);
  });

  it('an edit replaces the files; passing the message’s file parts keeps them', async () => {
    const { client, requests } = clientOver(() => sseResponse(answer));
    await client.sendMessage({ text: 'what is this', files: [new File(['x'], 'a.png', { type: 'image/png' })] });
    const first = client.getSnapshot().messages[0]!;
    const files = first.parts.filter((part): part is FilePart => part.type === 'file');
    await client.sendMessage({ text: 'what is this, in French', files, messageId: first.id });
    expect(client.getSnapshot().messages[0]!.parts).toEqual([{ type: 'text', text: 'what is this, in French', state: 'done' }, ...files]);
    expect(sentMessages(requests, 1)[0]!.content as unknown[]).toHaveLength(2);
    // The edit is a new message: the next edit names it.
    await client.sendMessage({ text: 'just text now', messageId: client.getSnapshot().messages[0]!.id });
    expect(client.getSnapshot().messages[0]!.parts).toEqual([{ type: 'text', text: 'just text now', state: 'done' }]);
  });
});

describe('attachments: toWireMessages and fromWireMessages', () => {
  it('round-trips file parts through AG-UI messages', () => {
    const messages: ChatMessage[] = [
      {
        id: 'u1',
        role: 'user',
        createdAt: 0,
        parts: [
          { type: 'text', text: 'see', state: 'done' },
          { type: 'file', mimeType: 'image/png', url: 'data:image/png;base64,iVBORw0KGgo=', filename: 'a.png' },
          { type: 'file', mimeType: 'application/pdf', url: '/uploads/report.pdf' },
        ],
      },
    ];
    const wire = toWireMessages(messages);
    const back = fromWireMessages(wire, 0);
    expect(back).toEqual(messages);
  });

  it('reads files a server or a saved conversation sent, keeping only URLs a page may use', () => {
    const back = fromWireMessages(
      [
        {
          id: 'u1',
          role: 'user',
          content: [
            { type: 'image', source: { type: 'url', value: 'javascript:alert(1)' } },
            { type: 'image', source: { type: 'file', value: 'file-abc', provider: 'openai' } },
            { type: 'audio', source: { type: 'data', value: 'AAAA', mimeType: 'audio/wav' } },
            { type: 'video', source: { type: 'url', value: 'https://v.example/a.mp4', mimeType: 'video/mp4' } },
          ],
        },
      ],
      0,
    );
    expect(back[0]!.parts).toEqual([
      { type: 'file', mimeType: 'audio/wav', url: 'data:audio/wav;base64,AAAA' },
      { type: 'file', mimeType: 'video/mp4', url: 'https://v.example/a.mp4' },
    ]);
  });
});
