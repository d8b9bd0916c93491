/**
 * `npm run bench:search`: tool retrieval on public labelled data, Chatwire's search side by side
 * with plain BM25 (minisearch), the AI SDK 7 `toolSearch` default search and Mastra's
 * ToolSearchProcessor, all in this one process run; then search time and the discovery tool's
 * catalog cost at 50, 200, 1,254 and 10,000 tools.
 *
 * The data is read at run time from ../shared/tool-retrieval/data (beside the project root): it is
 * never committed, and without it this says so and skips the retrieval part.
 *
 * Every table row is given on all requests and on the held-out half (`half()` in retrieval.ts: a
 * hash of the request's id), which no tuning read. The index build is also timed in fresh
 * processes (the median of 7), as an app builds it once with a cold JIT.
 *
 * Flags (for tuning): `--methods chatwire,bm25` and `--sources metatool,bfcl-live` narrow the run;
 * `--half tune` scores only the tuning half; `--tuning '{"k1":1.5}'` overrides Chatwire's tuning values;
 * `--build-only 1` times only the fresh-process builds.
 */
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import {
  aggregate,
  aiSdk,
  chatwire,
  DATA_DIR,
  half,
  loadData,
  mastra,
  median,
  plainBm25,
  scoreEach,
  type CatalogTool,
  type Method,
  type Scores,
} from './retrieval.js';
import { catalogCosts } from './catalogCost.js';

const flag = (name: string) => {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? undefined : process.argv[index + 1]?.split(',');
};

const fmt = (value: number) => value.toFixed(2);

async function retrieval(): Promise<void> {
  const data = loadData();
  if (!data) {
    console.log(`Skipped retrieval: no data at ${DATA_DIR} (the public tool-retrieval data is read at run time and never committed).`);
    return;
  }
  const tuning = flag('tuning');
  const all: Method[] = [chatwire((tool) => tool.server, tuning ? JSON.parse(tuning.join(',')) : {}), plainBm25, aiSdk, mastra];
  const only = flag('half')?.[0];
  if (only && only !== 'tune' && only !== 'held-out') throw new Error('--half is tune or held-out.');
  if (only) data.queries = data.queries.filter((query) => half(query.id) === only);
  const wanted = flag('methods');
  const methods = wanted ? all.filter((method) => wanted.includes(method.id)) : all;
  const sources = flag('sources') ?? ['livemcpbench', 'bfcl-live', 'metatool'];
  const rows: { setting: string; method: string; scores: Scores; held: Scores; buildMs: number }[] = [];
  const settings: { setting: string; tools: CatalogTool[]; queries: typeof data.queries }[] = [
    ...sources.map((source) => ({
      setting: `${source} (own catalog)`,
      tools: data.catalog.filter((tool) => tool.source === source),
      queries: data.queries.filter((query) => query.source === source),
    })),
    {
      setting: `pooled (${sources.join(' + ')})`,
      tools: data.catalog.filter((tool) => sources.includes(tool.source)),
      queries: data.queries.filter((query) => sources.includes(query.source)),
    },
  ];
  for (const { setting, tools, queries } of settings) {
    for (const method of methods) {
      const builds: number[] = [];
      let rank = method.build(tools);
      for (let run = 0; run < 5; run++) {
        const start = performance.now();
        rank = method.build(tools);
        builds.push(performance.now() - start);
      }
      await scoreEach(rank, queries.slice(0, 50)); // warm-up
      const each = await scoreEach(rank, queries);
      const heldOut = new Set(queries.filter((query) => half(query.id) === 'held-out').map((query) => query.id));
      rows.push({
        setting,
        method: method.id,
        scores: aggregate(each),
        held: aggregate(each.filter((score) => heldOut.has(score.id))),
        buildMs: median(builds),
      });
    }
  }
  console.log(
    `\nTool retrieval (${data.catalog.length} tools, ${data.queries.length} labelled requests${only ? `, ${only} half only` : ''}; Node ${process.version}, one process; load average ${loadavg()
      .map((load) => load.toFixed(1))
      .join(' ')})`,
  );
  console.log(
    'recall@k counts each needed tool of a request (lenient: any tool in `acceptable` satisfies a need); MRR of the first satisfying tool.',
  );
  console.log(
    '"held-out": the half of the requests no tuning read (hash of the request id); build ms: in this process, warm, median of 5.\n',
  );
  console.log(
    '| setting | method | tools | requests (held-out) | recall@1 | recall@5 | recall@10 | MRR | held-out recall@5 | held-out MRR | median ms/query | index build ms |',
  );
  console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const row of rows) {
    const tools = settings.find((setting) => setting.setting === row.setting)?.tools.length ?? 0;
    console.log(
      `| ${row.setting} | ${row.method} | ${tools} | ${row.scores.queries} (${row.held.queries}) | ${fmt(row.scores.r1)} | ${fmt(row.scores.r5)} | ${fmt(row.scores.r10)} | ${fmt(row.scores.mrr)} | ${fmt(row.held.r5)} | ${fmt(row.held.mrr)} | ${row.scores.msMedian.toFixed(3)} | ${row.buildMs.toFixed(1)} |`,
    );
  }
  const pooled = rows.filter((row) => row.setting.startsWith('pooled'));
  const ours = pooled.find((row) => row.method === 'chatwire');
  const peers = pooled.filter((row) => row.method !== 'chatwire');
  if (ours && peers.length) {
    const best = peers.reduce((a, b) => (b.scores.r5 > a.scores.r5 ? b : a));
    console.log(
      `\nPooled recall@5: chatwire ${fmt(ours.scores.r5)} vs best other ${best.method} ${fmt(best.scores.r5)} (${((ours.scores.r5 - best.scores.r5) * 100).toFixed(1)} points).`,
    );
    const bestHeld = peers.reduce((a, b) => (b.held.r5 > a.held.r5 ? b : a));
    console.log(
      `Held-out half: chatwire ${fmt(ours.held.r5)} vs best other ${bestHeld.method} ${fmt(bestHeld.held.r5)} (${((ours.held.r5 - bestHeld.held.r5) * 100).toFixed(1)} points).`,
    );
  }
  if (!flag('methods') || flag('build')) freshBuilds();
}

if (flag('build-only')) {
  freshBuilds();
  process.exit(0);
}

/** The pooled index build in fresh processes: Chatwire's and plain minisearch's, median of 7 each. */
function freshBuilds(): void {
  const script = new URL('./buildOnce.ts', import.meta.url).pathname;
  const load = loadavg()[0]?.toFixed(1);
  for (const method of ['chatwire', 'bm25']) {
    const wall: number[] = [];
    const cpu: number[] = [];
    for (let run = 0; run < 7; run++) {
      const out = execFileSync(process.execPath, ['--conditions=@chatwire/source', '--import', 'tsx', script, method], {
        encoding: 'utf8',
      });
      const result = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as { ms: number; cpuMs: number };
      wall.push(result.ms);
      cpu.push(result.cpuMs);
    }
    const sorted = [...wall].sort((a, b) => a - b);
    console.log(
      `Index build, pooled catalog, fresh process (${method}): median ${median(wall).toFixed(1)} ms wall (min ${sorted[0]?.toFixed(1)}, max ${sorted.at(-1)?.toFixed(1)}), median ${median(cpu).toFixed(1)} ms CPU, of 7; load average ${load} before, ${loadavg()[0]?.toFixed(1)} after.`,
    );
  }
}

await retrieval();
if (!flag('methods')) await catalogCosts(loadData()?.catalog);
