// @vitest-environment jsdom
/**
 * React hooks side by side in jsdom: Chatwire's `useChat`, TanStack AI's `useChat` and the AI SDK's
 * `useChat`, each in a component that renders every message's text and the status, fed the same
 * 2,000 one-word deltas in its own protocol (bodies from peers.ts). One sample
 * mounts a fresh root, sends one message and ends at the first commit that shows status `ready`
 * and the full text; a sample that ends in an error, or with other text, fails the benchmark.
 * Each hook runs with its defaults (Chatwire: one render per animation frame; the AI SDK: one
 * render per chunk; TanStack AI: React state per chunk plus a macrotask per chunk), and Chatwire
 * once more with `batching: 'none'` (one render per change) for a like-for-like render count.
 *
 * Run with `npm run bench` (not part of `npm test`). Results and method: docs/benchmarks.md.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useRef, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { bench, describe } from 'vitest';
import { useChat as useAiSdkChat } from '@ai-sdk/react';
import { fetchServerSentEvents as tanstackSse } from '@tanstack/ai-client';
import { useChat as useTanStackChat } from '@tanstack/ai-react';
import { DefaultChatTransport, type UIMessage } from 'ai';
import { fetchServerSentEvents as chatwireSse, messageText } from '@chatwire/core';
import { useChat as useChatwire, type RenderBatching } from '@chatwire/react';
import { aiSdkBody, chatwireBody, fetchReplaying, tanstackBody, textScenario, URL_, type Body } from './peers.ts';

const DELTAS = 2_000;
const scenario = textScenario(DELTAS);
const expected = scenario.kind === 'text' ? scenario.text : '';
const bodies = { chatwire: chatwireBody(scenario), tanstack: await tanstackBody(scenario), aiSdk: await aiSdkBody(scenario) };

/** Commits (renders that reached the DOM) in the last sample of each hook, printed after its run. */
const commits = new Map<string, number>();

interface Probe {
  /** Called after every commit with what the component rendered. */
  readonly committed: (view: { readonly status: string; readonly text: string; readonly error: string | undefined }) => void;
}

function Messages({ messages }: { readonly messages: readonly { readonly id: string; readonly role: string; readonly text: string }[] }) {
  return (
    <ul>
      {messages.map((message) => (
        <li key={message.id} data-role={message.role}>
          {message.text}
        </li>
      ))}
    </ul>
  );
}

function useAfterCommit(probe: Probe, status: string, lastText: string, error: string | undefined) {
  useEffect(() => probe.committed({ status, text: lastText, error }));
}

function ChatwireView({ probe, body, batching }: { readonly probe: Probe; readonly body: Body; readonly batching: RenderBatching }) {
  const connection = useRef(chatwireSse({ url: URL_, fetch: fetchReplaying(body) })).current;
  const chat = useChatwire({ connection, batching });
  const messages = chat.messages.map((message) => ({ id: message.id, role: message.role, text: messageText(message) }));
  useAfterCommit(probe, chat.status, messages.at(-1)?.role === 'assistant' ? (messages.at(-1)?.text ?? '') : '', chat.error?.message);
  useEffect(() => {
    void chat.sendMessage('hi');
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, on mount: later renders must not send again
  }, []);
  return (
    <section data-status={chat.status}>
      <Messages messages={messages} />
    </section>
  );
}

function TanStackView({ probe, body }: { readonly probe: Probe; readonly body: Body }) {
  const connection = useRef(tanstackSse(URL_, { fetchClient: fetchReplaying(body) })).current;
  const chat = useTanStackChat({ connection });
  const messages = chat.messages.map((message) => ({
    id: message.id,
    role: message.role,
    text: message.parts.map((part) => (part.type === 'text' ? part.content : '')).join(''),
  }));
  useAfterCommit(probe, chat.status, messages.at(-1)?.role === 'assistant' ? (messages.at(-1)?.text ?? '') : '', chat.error?.message);
  useEffect(() => {
    void chat.sendMessage('hi');
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, on mount: later renders must not send again
  }, []);
  return (
    <section data-status={chat.status}>
      <Messages messages={messages} />
    </section>
  );
}

function AiSdkView({ probe, body }: { readonly probe: Probe; readonly body: Body }) {
  const transport = useRef(new DefaultChatTransport<UIMessage>({ api: URL_, fetch: fetchReplaying(body) })).current;
  const chat = useAiSdkChat({ transport });
  const messages = chat.messages.map((message) => ({
    id: message.id,
    role: message.role,
    text: message.parts.map((part) => (part.type === 'text' ? part.text : '')).join(''),
  }));
  useAfterCommit(probe, chat.status, messages.at(-1)?.role === 'assistant' ? (messages.at(-1)?.text ?? '') : '', chat.error?.message);
  useEffect(() => {
    void chat.sendMessage({ text: 'hi' });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, on mount: later renders must not send again
  }, []);
  return (
    <section data-status={chat.status}>
      <Messages messages={messages} />
    </section>
  );
}

const SAMPLE_TIMEOUT_MS = 60_000;

/** Mounts `render(probe)` in a fresh root and resolves at the first commit that shows the whole answer. */
async function sample(name: string, render: (probe: Probe) => ReactNode): Promise<void> {
  const container = document.createElement('div');
  document.body.append(container);
  const queryClient = new QueryClient();
  const root = createRoot(container);
  let count = 0;
  let sawBusy = false;
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${name}: no complete answer after ${SAMPLE_TIMEOUT_MS} ms`)), SAMPLE_TIMEOUT_MS);
      const probe: Probe = {
        committed: ({ status, text, error }) => {
          count++;
          if (status === 'submitted' || status === 'streaming') sawBusy = true;
          if (error || status === 'error') {
            clearTimeout(timer);
            reject(new Error(`${name}: ${error ?? status}`));
          } else if (sawBusy && status === 'ready') {
            clearTimeout(timer);
            if (text === expected) resolve();
            else reject(new Error(`${name}: ready with ${text.length} characters, wanted ${expected.length}`));
          }
        },
      };
      root.render(<QueryClientProvider client={queryClient}>{render(probe)}</QueryClientProvider>);
    });
    if (container.textContent !== `hi${expected}`) throw new Error(`${name}: the DOM does not show the answer`);
    commits.set(name, count);
  } finally {
    root.unmount();
    container.remove();
    queryClient.clear();
  }
}

/** Exact sample counts (time 0); after the timed run, prints how many commits the last sample made. */
const runs = (name: string, iterations: number, warmupIterations: number) => ({
  time: 0,
  warmupTime: 0,
  iterations,
  warmupIterations,
  teardown: (_task: unknown, mode?: 'run' | 'warmup') => {
    if (mode === 'run') console.log(`[render.bench] ${name}: ${commits.get(name) ?? '?'} commits per sample`);
  },
});

describe(`useChat render: ${DELTAS.toLocaleString('en-US')} one-word deltas`, () => {
  // Native async functions: tinybench would otherwise call each one once, untimed, to find out.
  bench(
    'chatwire',
    async () => {
      await sample('chatwire', (probe) => <ChatwireView probe={probe} body={bodies.chatwire} batching="frame" />);
    },
    runs('chatwire', 20, 5),
  );
  bench(
    "chatwire, batching: 'none'",
    async () => {
      await sample("chatwire, batching: 'none'", (probe) => <ChatwireView probe={probe} body={bodies.chatwire} batching="none" />);
    },
    runs("chatwire, batching: 'none'", 10, 3),
  );
  bench(
    'ai-sdk',
    async () => {
      await sample('ai-sdk', (probe) => <AiSdkView probe={probe} body={bodies.aiSdk} />);
    },
    runs('ai-sdk', 10, 3),
  );
  bench(
    'tanstack-ai',
    async () => {
      await sample('tanstack-ai', (probe) => <TanStackView probe={probe} body={bodies.tanstack} />);
    },
    runs('tanstack-ai', 3, 1),
  );
});
