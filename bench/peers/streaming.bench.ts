/**
 * Headless clients side by side: Chatwire's `ChatClient`, TanStack AI's `ChatClient` and the AI
 * SDK's `Chat`, each fed the same content in its own protocol's SSE body (built once, below),
 * replayed from memory in 512-byte chunks through the client's own fetch + SSE path. One sample is
 * one whole turn on a new client: `sendMessage`, stream, finished state. Every sample checks that
 * the client ended `ready` with the full text (or the complete tool input); a failed check fails
 * the benchmark.
 *
 * Run with `npm run bench` (not part of `npm test`). Results and method: docs/benchmarks.md.
 */
import { bench, describe } from 'vitest';
import {
  aiSdkBody,
  chatwireBody,
  runAiSdk,
  runChatwire,
  runTanStack,
  tanstackBody,
  textScenario,
  toolScenario,
  withHiddenDocument,
  type Scenario,
} from './peers.ts';

/** Exact sample counts (time 0): the slow cases stay within their time budget. */
const runs = (iterations: number, warmupIterations: number) => ({ time: 0, warmupTime: 0, iterations, warmupIterations });

interface Plan {
  readonly title: string;
  readonly scenario: Scenario;
  readonly chatwire: ReturnType<typeof runs>;
  readonly aiSdk: ReturnType<typeof runs>;
  /** TanStack AI waits one macrotask (>= 1 ms in Node) per chunk, so it gets fewer samples. */
  readonly tanstack: ReturnType<typeof runs>;
  readonly tanstackHidden: ReturnType<typeof runs>;
}

const plans: Plan[] = [
  {
    title: 'text: 20,000 one-word deltas',
    scenario: textScenario(20_000),
    chatwire: runs(10, 3),
    aiSdk: runs(6, 2),
    tanstack: runs(1, 0),
    tanstackHidden: runs(6, 2),
  },
  {
    title: 'text: 2,000 one-word deltas',
    scenario: textScenario(2_000),
    chatwire: runs(40, 10),
    aiSdk: runs(40, 10),
    tanstack: runs(5, 1),
    tanstackHidden: runs(40, 10),
  },
  {
    title: 'tool call: 4,000 one-character argument deltas',
    scenario: toolScenario(4_000),
    chatwire: runs(30, 5),
    aiSdk: runs(8, 2),
    tanstack: runs(3, 0),
    tanstackHidden: runs(8, 2),
  },
];

for (const plan of plans) {
  const { scenario } = plan;
  const bodies = { chatwire: chatwireBody(scenario), tanstack: await tanstackBody(scenario), aiSdk: await aiSdkBody(scenario) };

  // Native async functions: tinybench would otherwise call each one once, untimed, to find out.
  describe(plan.title, () => {
    bench(
      'chatwire',
      async () => {
        await runChatwire(scenario, bodies.chatwire);
      },
      plan.chatwire,
    );
    bench(
      'ai-sdk',
      async () => {
        await runAiSdk(scenario, bodies.aiSdk);
      },
      plan.aiSdk,
    );
    bench(
      'tanstack-ai',
      async () => {
        await runTanStack(scenario, bodies.tanstack);
      },
      plan.tanstack,
    );
    bench(
      'tanstack-ai, per-chunk yield skipped (diagnostic)',
      async () => {
        await withHiddenDocument(() => runTanStack(scenario, bodies.tanstack));
      },
      plan.tanstackHidden,
    );
  });
}
