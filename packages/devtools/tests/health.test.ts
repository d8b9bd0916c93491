import { describe, expect, it } from 'vitest';
import { createToolSearch, type ToolSearch } from '@chatwire/core/shared';
import {
  buildSearchIndex,
  catalogSearchSetup,
  computeHealth,
  healthQueries,
  runInSlices,
  type PartialToolCatalogEntry,
} from '@chatwire/devtools/production';

/**
 * Discovery health on catalogs written for these tests, whose outcome follows from how the search
 * weighs words (BM25F: a word in a shorter field weighs more; stop words are not searched).
 */
const entry = (
  name: string,
  description: string,
  tokens: number,
  extra: Partial<PartialToolCatalogEntry> = {},
): PartialToolCatalogEntry => ({
  name,
  description,
  lazy: true,
  tokens,
  ...extra,
});

const catalog: PartialToolCatalogEntry[] = [
  // Twins: the same description; the copy's name is one word longer, so "send" and "email" weigh less in it.
  entry('send_email', 'Sends an email message to a recipient.', 120),
  entry('send_email_copy', 'Sends an email message to a recipient.', 130),
  entry('get_weather', 'Current weather for a city.', 90),
  // Every word of its name and description is a stop word: no request made of them searches anything.
  entry('do_it', 'It is.', 40),
  entry('eagerOne', 'Not searched: eager tools are always sent.', 50, { lazy: false }),
];

describe('discovery health', () => {
  it('searches each tool with its name words and its description', () => {
    expect(healthQueries({ name: 'getForecast', description: 'Multi-day forecast for a city. Use getWeather otherwise.' })).toEqual([
      { kind: 'name', text: 'get forecast' },
      { kind: 'description', text: 'Multi-day forecast for a city. Use getWeather otherwise.' },
    ]);
    expect(healthQueries({ name: 'x', description: ' ' })).toEqual([{ kind: 'name', text: 'x' }]);
  });

  it('ranks the lazy tools worst first: unfindable, then cut by topK, then first by no margin, then well ahead', async () => {
    const setup = catalogSearchSetup(catalog, { searches: true, mode: 'search', topK: 1, minScore: 0, groupAbove: 100, appSearch: false })!;
    expect(setup.tools.map((tool) => tool.name)).not.toContain('eagerOne');
    const rows = await computeHealth(setup, await buildSearchIndex(setup));
    expect(rows.map((row) => [row.name, row.findability, row.margin])).toEqual([
      // None of its requests has a word to search.
      ['do_it', 0, 0],
      // Its name's "copy" finds it first; its description (and the description without "send" and "email") finds the twin
      // first (a shorter name; then, tied, the name's order), and topK 1 cuts it: (1 + 0 + 0) / 3.
      ['send_email_copy', 0.333, 0],
      // First for all three, but "message recipient" scores the twin the same: no margin.
      ['send_email', 1, 0],
      // No other tool has "weather", "current" or "city".
      ['get_weather', 1, 1],
    ]);
    const byName = new Map(rows.map((row) => [row.name, row]));
    expect(byName.get('send_email_copy')?.queries.map((query) => [query.kind, query.text, query.rank, query.returned])).toEqual([
      ['name', 'send email copy', 1, true],
      ['description', 'Sends an email message to a recipient.', 2, false],
      ['without-name', 'message recipient', 2, false],
    ]);
    // The original outranks the copy (ratio above 1) on the description; the copy ties it without the names' words.
    expect(byName.get('send_email_copy')?.confusedWith[0]).toMatchObject({ name: 'send_email', via: 'description' });
    expect(byName.get('send_email_copy')?.confusedWith[0]?.ratio).toBeGreaterThan(1);
    expect(byName.get('send_email')?.confusedWith).toEqual([{ name: 'send_email_copy', ratio: 1, via: 'without-name' }]);
    expect(byName.get('get_weather')?.confusedWith).toEqual([]);
    expect(byName.get('do_it')?.queries.every((query) => query.rank === undefined)).toBe(true);
    expect(rows.map((row) => row.tokens)).toEqual([40, 130, 120, 90]);
  });

  it("with the server's wider topK the copy is still found second by its description: (1 + 1/2 + 1/2) / 3", async () => {
    const setup = catalogSearchSetup(catalog, undefined)!;
    expect([setup.topK, setup.minScore]).toEqual([5, 0.3]);
    const rows = await computeHealth(setup, await buildSearchIndex(setup));
    expect(rows.find((row) => row.name === 'send_email_copy')?.findability).toBe(0.667);
  });
});

describe('a 1,000-tool catalog never blocks the page', () => {
  /** 1,000 distinct lazy tools; reading a schema's properties (what indexing a tool does) is counted. */
  function largeCatalog(reads: { count: number }): PartialToolCatalogEntry[] {
    const topics = ['invoice', 'shipment', 'calendar', 'ticket', 'report', 'customer', 'message', 'forecast', 'product', 'account'];
    const verbs = ['get', 'list', 'create', 'update', 'delete', 'search', 'export', 'archive', 'assign', 'merge'];
    const regions =
      'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo sierra tango'.split(
        ' ',
      );
    return Array.from({ length: 1_000 }, (_, index) => {
      const topic = topics[index % 10]!;
      const verb = verbs[Math.floor(index / 10) % 10]!;
      const schema = {
        type: 'object',
        get properties() {
          reads.count++;
          return { id: { type: 'string', description: `The ${topic} id.` }, [`field${index}`]: { type: 'string' } };
        },
      };
      // Each request shares a word with about 250 tools: its verb's, its topic's, its region's.
      const region = regions[index % 20]!;
      return entry(`${verb}_${topic}_${index}`, `${verb} ${topic} ${index} in ${region}.`, 80, {
        parameters: schema,
      });
    });
  }

  // 3,000 searches over 1,000 tools: seconds on a busy machine, hence its own time limit.
  it(
    'indexes at most 25 tools per slice, and ranks at most 8 requests per slice, letting a waiting task run between',
    { timeout: 90_000 },
    async () => {
      const reads = { count: 0 };
      const setup = catalogSearchSetup(largeCatalog(reads), undefined)!;
      const perSlice: number[] = [];
      let before = 0;
      const countingYield = () => {
        perSlice.push(reads.count - before);
        before = reads.count;
        return new Promise<void>((resolve) => setTimeout(resolve, 0));
      };
      const index = await buildSearchIndex(setup, { yieldToPage: countingYield });
      expect(reads.count).toBe(1_000);
      expect(Math.max(...perSlice)).toBeLessThanOrEqual(25);
      expect(perSlice.length).toBeGreaterThanOrEqual(39);

      // Ranking: count the searches each slice runs, and check a task queued at the start runs long before the end.
      let searches = 0;
      const counted: ToolSearch = { ...index, explain: (query, options) => (searches++, index.explain(query, options)) };
      const searchesPerSlice: number[] = [];
      let searchesBefore = 0;
      let pageRanAt: number | undefined;
      setTimeout(() => (pageRanAt = searches), 0);
      const rows = await computeHealth(setup, counted, {
        yieldToPage: () => {
          searchesPerSlice.push(searches - searchesBefore);
          searchesBefore = searches;
          return new Promise<void>((resolve) => setTimeout(resolve, 0));
        },
      });
      expect(rows).toHaveLength(1_000);
      // Three requests per tool: its name, its description, its description without its name's words.
      expect(searches).toBe(3_000);
      expect(searchesPerSlice.length).toBeGreaterThanOrEqual(374);
      expect(Math.max(...searchesPerSlice)).toBeLessThanOrEqual(8);
      expect(pageRanAt).toBeLessThanOrEqual(8);
    },
  );

  it('stops when its signal aborts, between steps', async () => {
    const abort = new AbortController();
    let ran = 0;
    const steps = Array.from({ length: 100 }, () => () => {
      ran++;
      if (ran === 10) abort.abort(new Error('closed'));
    });
    await expect(runInSlices(steps, { perSlice: 4, signal: abort.signal, yieldToPage: () => Promise.resolve() })).rejects.toThrow('closed');
    expect(ran).toBe(10);
  });

  it('the index it builds in slices answers as one built at once', async () => {
    const setup = catalogSearchSetup(largeCatalog({ count: 0 }), undefined)!;
    const sliced = await buildSearchIndex(setup, { yieldToPage: () => Promise.resolve() });
    const atOnce = createToolSearch(setup.tools);
    for (const query of ['export the forecast', 'assign ticket 512', 'merge customer accounts in romeo'])
      expect(await sliced.search(query, { topK: 10 })).toEqual(await atOnce.search(query, { topK: 10 }));
  });
});
