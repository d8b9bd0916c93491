/**
 * `npm run bench:search`: tool retrieval on public labelled data, Chatwire's search side by side
 * with plain BM25 (minisearch), the AI SDK 7 `toolSearch` default search and Mastra's
 * ToolSearchProcessor, all in this one process run; then search time and the discovery tool's
 * catalog cost at 50, 200, 1,254 and 10,000 tools.
 *
 * The data is read at run time from ../shared/tool-retrieval/data (beside the project root): it is
 * never committed, and without it this says so and skips the retrieval part.
 *
 * Flags: `--methods chatwire,bm25` and `--sources metatool,bfcl-live` narrow the run (for tuning).
 */
import { aiSdk, chatwire, DATA_DIR, evaluate, loadData, mastra, median, plainBm25, type CatalogTool, type Method, type Scores } from './retrieval.js';
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
  const all: Method[] = [chatwire((tool) => tool.server), plainBm25, aiSdk, mastra];
  const wanted = flag('methods');
  const methods = wanted ? all.filter((method) => wanted.includes(method.id)) : all;
  const sources = flag('sources') ?? ['livemcpbench', 'bfcl-live', 'metatool'];
  const rows: { setting: string; method: string; scores: Scores; buildMs: number }[] = [];
  const settings: { setting: string; tools: CatalogTool[]; queries: typeof data.queries }[] = [
    ...sources.map((source) => ({
      setting: `${source} (own catalog)`,
      tools: data.catalog.filter((tool) => tool.source === source),
      queries: data.queries.filter((query) => query.source === source),
    })),
    { setting: `pooled (${sources.join(' + ')})`, tools: data.catalog.filter((tool) => sources.includes(tool.source)), queries: data.queries.filter((query) => sources.includes(query.source)) },
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
      await evaluate(rank, queries.slice(0, 50)); // warm-up
      rows.push({ setting, method: method.id, scores: await evaluate(rank, queries), buildMs: median(builds) });
    }
  }
  console.log(`\nTool retrieval (${data.catalog.length} tools, ${data.queries.length} labelled requests; Node ${process.version}, one process)`);
  console.log('recall@k counts each needed tool of a request (lenient: any tool in `acceptable` satisfies a need); MRR of the first satisfying tool.\n');
  console.log('| setting | method | tools | requests | recall@1 | recall@5 | recall@10 | MRR | median ms/query | index build ms |');
  console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const row of rows) {
    const tools = settings.find((setting) => setting.setting === row.setting)?.tools.length ?? 0;
    console.log(
      `| ${row.setting} | ${row.method} | ${tools} | ${row.scores.queries} | ${fmt(row.scores.r1)} | ${fmt(row.scores.r5)} | ${fmt(row.scores.r10)} | ${fmt(row.scores.mrr)} | ${row.scores.msMedian.toFixed(3)} | ${row.buildMs.toFixed(1)} |`,
    );
  }
  const pooled = rows.filter((row) => row.setting.startsWith('pooled'));
  const ours = pooled.find((row) => row.method === 'chatwire');
  const peers = pooled.filter((row) => row.method !== 'chatwire');
  if (ours && peers.length) {
    const best = peers.reduce((a, b) => (b.scores.r5 > a.scores.r5 ? b : a));
    console.log(`\nPooled recall@5: chatwire ${fmt(ours.scores.r5)} vs best other ${best.method} ${fmt(best.scores.r5)} (${((ours.scores.r5 - best.scores.r5) * 100).toFixed(1)} points).`);
  }
}

await retrieval();
if (!flag('methods')) await catalogCosts(loadData()?.catalog);
