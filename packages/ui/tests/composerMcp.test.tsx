import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Composer } from '../src/index.js';

/**
 * The composer's MCP resources and prompts against a stand-in MCP handler (fetch answered here with
 * what `createMcpAuthHandler` answers): a resource attaches as a file, an oversized one says why and
 * attaches nothing, a prompt is a slash command with its argument form and completion, and every
 * name from a server is shown as text.
 */
const requests: { url: string; body?: unknown }[] = [];
const realFetch = globalThis.fetch;
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeEach(() => {
  requests.length = 0;
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined;
    requests.push({ url, ...(body ? { body } : {}) });
    if (url === '/api/mcp/resources')
      return json(200, {
        servers: [
          {
            server: 'notes',
            resources: [
              { uri: 'notes://welcome', name: 'welcome', title: 'Welcome note', mimeType: 'text/markdown' },
              { uri: 'notes://big', name: 'big', title: 'A 3 MiB note' },
              { uri: 'notes://x', name: 'x', title: '<img src=x onerror="window.hacked=1">' },
            ],
          },
          { server: 'linear', resources: [], error: 'not connected' },
        ],
      });
    if (url.startsWith('/api/mcp/resources/read?')) {
      const uri = new URL(url, 'http://x').searchParams.get('uri');
      if (uri === 'notes://big')
        return json(413, { error: 'The resource is 3,145,728 bytes; at most 1,048,576 are read.', code: 'too-large' });
      return json(200, { uri, name: 'welcome', mimeType: 'text/markdown', text: '# Welcome', bytes: 9 });
    }
    if (url === '/api/mcp/prompts')
      return json(200, {
        servers: [
          {
            server: 'notes',
            prompts: [
              { name: 'summarize', description: 'Summarize the notes about a topic.', arguments: [{ name: 'topic', required: true }] },
              { name: 'standup', arguments: [] },
            ],
            skipped: [{ name: 'huge', reason: 'it declares 1,000 arguments; at most 50 are shown as a form' }],
          },
        ],
      });
    if (url === '/api/mcp/prompts/complete') {
      const value = (body?.['argument'] as { value: string }).value;
      return json(200, { values: ['apples', 'apricots', 'bananas'].filter((topic) => topic.startsWith(value)) });
    }
    if (url === '/api/mcp/prompts/get') {
      const args = body?.['arguments'] as Record<string, string>;
      if (body?.['name'] === 'summarize' && !args['topic'])
        return json(400, { error: "The prompt 'summarize' needs 'topic'.", code: 'invalid' });
      return json(200, {
        messages: [
          { role: 'user', text: body?.['name'] === 'standup' ? 'Write my standup.' : `Summarize my notes about ${args['topic']}.` },
        ],
      });
    }
    return json(404, { error: 'nothing here' });
  }) as typeof fetch;
});
afterEach(() => {
  cleanup();
  globalThis.fetch = realFetch;
});

/** A file's text (jsdom's File has no text()). */
const readText = (file: File) =>
  new Promise<string>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.readAsText(file);
  });
const field = () => screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement;

describe('Composer with MCP', () => {
  it('attaches a resource as a text file; a server that is not connected says so; names are text', async () => {
    const sent: { text: string; files: readonly File[] }[] = [];
    render(<Composer busy={false} mcp={{}} onSend={(text, files) => void sent.push({ text, files })} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Attach a resource' }));
    await screen.findByRole('button', { name: 'Welcome note' });
    expect(screen.getByText('Nothing to attach: not connected.')).toBeTruthy();
    expect(screen.getByRole('button', { name: '<img src=x onerror="window.hacked=1">' })).toBeTruthy();
    expect(document.querySelector('.cw-resource-menu img')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Welcome note' }));
    await waitFor(() => expect(screen.getByTestId('composer-files').textContent).toContain('welcome.txt'));
    expect(screen.queryByTestId('resource-menu')).toBeNull();
    fireEvent.change(field(), { target: { value: 'read this' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(sent).toHaveLength(1);
    const [file] = sent[0]!.files;
    expect({ name: file?.name, type: file?.type, text: file ? await readText(file) : undefined }).toEqual({
      name: 'welcome.txt',
      type: 'text/plain',
      text: '# Welcome',
    });
  });

  it('an oversized resource attaches nothing and shows the reason', async () => {
    render(<Composer busy={false} mcp={{}} onSend={() => {}} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Attach a resource' }));
    fireEvent.click(await screen.findByRole('button', { name: 'A 3 MiB note' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The resource is 3,145,728 bytes; at most 1,048,576 are read.');
    expect(screen.queryByTestId('composer-files')).toBeNull();
  });

  it('a prompt is a slash command: its form offers completion, and its text replaces the draft', async () => {
    const sent: string[] = [];
    render(<Composer busy={false} mcp={{ endpoint: '/api/mcp' }} onSend={(text) => void sent.push(text)} />);
    fireEvent.change(field(), { target: { value: '/su' } });
    const command = await screen.findByRole('button', { name: /\/summarize/ });
    // Only the prompts whose name matches; the skipped one is never offered.
    expect(screen.queryByRole('button', { name: /\/standup/ })).toBeNull();
    expect(screen.queryByText(/huge/)).toBeNull();
    fireEvent.click(command);
    const topic = screen.getByRole('combobox', { name: 'topic (required)' });
    fireEvent.change(topic, { target: { value: 'ap' } });
    await waitFor(() =>
      expect([...document.querySelectorAll('datalist option')].map((option) => option.getAttribute('value'))).toEqual([
        'apples',
        'apricots',
      ]),
    );
    fireEvent.change(topic, { target: { value: 'apples' } });
    // Enter in a field uses the prompt (and does not send the draft).
    fireEvent.keyDown(topic, { key: 'Enter' });
    await waitFor(() => expect(field().value).toBe('Summarize my notes about apples.'));
    expect(screen.queryByTestId('prompt-form')).toBeNull();
    expect(sent).toEqual([]);
    expect(requests.filter((request) => request.url === '/api/mcp/prompts')).toHaveLength(1);
    expect(requests.find((request) => request.url === '/api/mcp/prompts/get')?.body).toEqual({
      server: 'notes',
      name: 'summarize',
      arguments: { topic: 'apples' },
    });
  });

  it("a prompt without arguments fills the draft at once; the server's refusal of a prompt is shown", async () => {
    render(<Composer busy={false} mcp={{}} onSend={() => {}} />);
    fireEvent.change(field(), { target: { value: '/' } });
    fireEvent.click(await screen.findByRole('button', { name: /\/standup/ }));
    await waitFor(() => expect(field().value).toBe('Write my standup.'));
    fireEvent.change(field(), { target: { value: '/summ' } });
    fireEvent.click(await screen.findByRole('button', { name: /\/summarize/ }));
    // Nothing is checked in the page: the server's words come back.
    fireEvent.click(screen.getByRole('button', { name: 'Use prompt' }));
    expect((await screen.findByRole('alert')).textContent).toBe("The prompt 'summarize' needs 'topic'.");
  });

  it('without `mcp` the composer offers neither', () => {
    render(<Composer busy={false} onSend={() => {}} />);
    fireEvent.change(field(), { target: { value: '/su' } });
    expect(screen.queryByRole('button', { name: 'Attach a resource' })).toBeNull();
    expect(requests).toEqual([]);
  });
});
