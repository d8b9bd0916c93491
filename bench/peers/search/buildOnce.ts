/**
 * One index build over the pooled catalog in this fresh process, for `npm run bench:search`'s
 * build-time figure: a catalog is indexed once per process in an app, so the JIT is cold, as here.
 * Prints `{"ms": …, "cpuMs": …}`: wall time, and the process's CPU time (user + system) over the build,
 * which a loaded machine inflates less. Argument: `chatwire` (default) or `bm25` (plain minisearch, for comparison).
 */
import MiniSearch from 'minisearch';
import { createToolSearchEngine } from '../../../packages/core/src/discovery/toolSearchEngine.js';
import { loadData } from './retrieval.js';

const data = loadData();
if (!data) throw new Error('No tool-retrieval data.');
const method = process.argv[2] ?? 'chatwire';
const tools = data.catalog.map((tool) => ({
  name: tool.name,
  description: tool.description,
  inputSchema: tool.parameters,
  ...(tool.server ? { group: tool.server } : {}),
}));
const cpu = process.cpuUsage();
const start = performance.now();
if (method === 'bm25') {
  const index = new MiniSearch<{ id: string; name: string; description: string }>({ fields: ['name', 'description'] });
  index.addAll(tools.map((tool) => ({ id: tool.name, name: tool.name, description: tool.description })));
} else {
  createToolSearchEngine(tools);
}
const ms = performance.now() - start;
const used = process.cpuUsage(cpu);
console.log(JSON.stringify({ ms, cpuMs: (used.user + used.system) / 1000 }));
