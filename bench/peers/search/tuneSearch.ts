/**
 * Tuning aid: scores Chatwire's search with each given tuning override on the TUNING HALF of the
 * labelled requests only (never the held-out half), per source and pooled. Data is read at run
 * time from ../shared/tool-retrieval/data, as by `npm run bench:search`. The objective column
 * ("objective") is pooled recall@5 over MetaTool and BFCL live requests only: LiveMCPBench is only
 * checked, never tuned on.
 *
 *   node --conditions=@chatwire/source --import tsx bench/peers/search/tuneSearch.ts '{"k1":1.5}' '{"k1":0.9}'
 */
import { aggregate, chatwire, half, loadData, scoreEach } from './retrieval.js';

const data = loadData();
if (!data) throw new Error('No tool-retrieval data at ../shared/tool-retrieval/data.');
const queries = data.queries.filter((query) => half(query.id) === 'tune');
const sources = ['livemcpbench', 'bfcl-live', 'metatool'];
const configs = process.argv.slice(2).length ? process.argv.slice(2) : ['{}'];
console.log('tuning half | r5 lmcp (check) | r5 bfcl | r5 meta | objective | pooled r1 | pooled r5 | pooled r10 | pooled MRR | config');
for (const config of configs) {
  const method = chatwire((tool) => tool.server, JSON.parse(config));
  const cells: string[] = [];
  for (const source of sources) {
    const rank = method.build(data.catalog.filter((tool) => tool.source === source));
    cells.push(
      aggregate(
        await scoreEach(
          rank,
          queries.filter((query) => query.source === source),
        ),
      ).r5.toFixed(3),
    );
  }
  const each = await scoreEach(method.build(data.catalog), queries);
  const checkOnly = new Set(queries.filter((query) => query.source === 'livemcpbench').map((query) => query.id));
  const objective = aggregate(each.filter((score) => !checkOnly.has(score.id))).r5;
  const pooled = aggregate(each);
  console.log(
    `${cells.join(' | ')} | ${objective.toFixed(4)} | ${pooled.r1.toFixed(3)} | ${pooled.r5.toFixed(3)} | ${pooled.r10.toFixed(3)} | ${pooled.mrr.toFixed(3)} | ${config}`,
  );
}
