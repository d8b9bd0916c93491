import { describe, expect, it } from 'vitest';
import { clientDiscovery, DISCOVERY_TOOL_NAME, toolDefinition, type AnyTool } from '@chatwire/core';
import {
  answerDiscoveryCall,
  createToolSearch,
  groupedCatalog,
  isGrouped,
  runDiscoverySearch,
  searchDiscoveryTool,
  GROUPED_CATALOG_ABOVE,
} from '@chatwire/core/shared';
import { splitWords } from '../src/discovery/splitWords.js';

/** A small catalog written for these tests: several naming conventions, one schema-only clue. */
const tools = [
  { name: 'weather__get_forecast', description: 'Forecast for the next days in a city.' },
  { name: 'getCurrentWeather', description: 'The weather right now.' },
  { name: 'send-email', description: 'Sends an email message to a recipient.' },
  { name: 'slack.postMessage', description: 'Posts to a channel.' },
  {
    name: 'calendar_create_event',
    description: 'Adds an entry.',
    inputSchema: { type: 'object', properties: { attendees: { type: 'array', description: 'People invited to the meeting.' } } },
  },
  { name: 'TranslateText', description: 'Translates text between languages.' },
];

const names = (matches: readonly { name: string }[]) => matches.map((match) => match.name);

describe('splitWords', () => {
  it('splits names in every convention into lower-case words', () => {
    expect(splitWords('searchProducts')).toEqual(['search', 'products']);
    expect(splitWords('getHTTPStatus')).toEqual(['get', 'http', 'status']);
    expect(splitWords('track_shipment')).toEqual(['track', 'shipment']);
    expect(splitWords('translate-text')).toEqual(['translate', 'text']);
    expect(splitWords('slack.postMessage')).toEqual(['slack', 'post', 'message']);
    expect(splitWords('github__create_issue')).toEqual(['github', 'create', 'issue']);
  });

  it('splits non-English Latin names the same way', () => {
    expect(splitWords('größeÄndern')).toEqual(['größe', 'ändern']);
    expect(splitWords('café_menü')).toEqual(['café', 'menü']);
  });

  it('splits only the space-separated runs holding non-ASCII characters with Unicode rules, the rest as ASCII', () => {
    expect(splitWords('getHTTPStatus “quoted” größeÄndern send_email')).toEqual([
      'get',
      'http',
      'status',
      'quoted',
      'größe',
      'ändern',
      'send',
      'email',
    ]);
    expect(splitWords('postMessage–toChannel now')).toEqual(['post', 'message', 'to', 'channel', 'now']);
    expect(splitWords('a\u00a0b c')).toEqual(['a', 'b', 'c']);
  });

  it('splits text written without spaces into character pairs', () => {
    expect(splitWords('必应搜索')).toEqual(['必应', '应搜', '搜索']);
    expect(splitWords('bing搜索')).toEqual(['bing', '搜索']);
  });
});

describe('createToolSearch', async () => {
  const index = createToolSearch(tools);

  it('ranks by name words in any convention, stems and drops stop words', async () => {
    expect(names(await index.search('forecast', { topK: 1 }))).toEqual(['weather__get_forecast']);
    // "emailing" stems to the "email" of send-email; "the", "to", "an" are stop words.
    expect(names(await index.search('emailing the boss', { topK: 1 }))).toEqual(['send-email']);
    expect(names(await index.search('post a message', { topK: 1 }))).toEqual(['slack.postMessage']);
    expect(names(await index.search('translate', { topK: 1 }))).toEqual(['TranslateText']);
  });

  it('finds a tool by its parameters’ names and descriptions', async () => {
    expect(names(await index.search('invite people to a meeting', { topK: 1 }))).toEqual(['calendar_create_event']);
  });

  it('scores relative to the best match: the best scores 1, however long the request', async () => {
    const long =
      'Hello there, I was wondering whether you could possibly tell me what the forecast says for the next few days in the city where I live';
    const matches = await index.search(long, { topK: 3, minScore: 0.3 });
    expect(matches[0]).toEqual({ name: 'weather__get_forecast', score: 1 });
    for (const match of matches) expect(match.score).toBeLessThanOrEqual(1);
  });

  it('keeps tools having every +required word, ranked by all words', async () => {
    expect(names(await index.search('weather', { topK: 5 })).sort()).toEqual(['getCurrentWeather', 'weather__get_forecast']);
    expect(names(await index.search('weather +days', { topK: 5 }))).toEqual(['weather__get_forecast']);
    expect(await index.search('+kubernetes weather', { topK: 5 })).toEqual([]);
  });

  it('returns nothing for empty, stop-word-only or unmatched queries, and honours topK and filter', async () => {
    expect(await index.search('   ')).toEqual([]);
    expect(await index.search('the and of')).toEqual([]);
    expect(await index.search('kubernetes')).toEqual([]);
    expect(await index.search('weather', { topK: 0 })).toEqual([]);
    expect(await index.search('weather', { topK: 1 })).toHaveLength(1);
    expect(names(await index.search('weather', { filter: (name) => name !== 'getCurrentWeather' }))).toEqual(['weather__get_forecast']);
  });

  it('treats hostile query text as words, never as a pattern', async () => {
    await expect(index.search('(a+)+$ [ \\ .* weather')).resolves.toBeInstanceOf(Array);
    expect(names(await index.search('(a+)+$ [ \\ .* weather', { topK: 5 })).sort()).toEqual(['getCurrentWeather', 'weather__get_forecast']);
    expect(await index.search('x'.repeat(100_000))).toEqual([]);
  });

  it('updates the index when the catalog changes, without rebuilding unchanged tools', async () => {
    const live = createToolSearch(tools);
    live.update([...tools.filter((tool) => tool.name !== 'send-email'), { name: 'github__create_issue', description: 'Opens an issue.' }]);
    expect(await live.search('email')).toEqual([]);
    expect(names(await live.search('open an issue', { topK: 1 }))).toEqual(['github__create_issue']);
    live.update(tools.map((tool) => (tool.name === 'TranslateText' ? { ...tool, description: 'Converts units.' } : tool)));
    expect(await live.search('languages')).toEqual([]);
    expect(names(await live.search('convert units', { topK: 1 }))).toEqual(['TranslateText']);
  });

  it('weighs a word by its rarity in the catalog: the rare word of a request decides', async () => {
    const catalog = createToolSearch([
      { name: 'list_users', description: 'List users.' },
      { name: 'list_projects', description: 'List projects.' },
      { name: 'list_files', description: 'List files.' },
      { name: 'list_tags', description: 'List tags.' },
      { name: 'invoice_overview', description: 'Invoices of the month.' },
    ]);
    // "list" is in four tools, "invoice" in one: the one with the rare word leads although it lacks "list".
    expect(names(await catalog.search('list invoices', { topK: 1 }))).toEqual(['invoice_overview']);
  });

  it('discounts a word found in a long description against the same word in a short one', async () => {
    const filler = 'It also handles accounts, settings, exports, reports, audit logs, billing, profiles and many other things. '.repeat(3);
    const catalog = createToolSearch([
      { name: 'admin_console', description: `${filler}Shows the weather too.` },
      { name: 'sky_now', description: 'The weather.' },
    ]);
    expect(names(await catalog.search('weather', { topK: 2 }))).toEqual(['sky_now', 'admin_console']);
  });

  it("weighs a request's phrasing words (please, help, want) below the words of its task", async () => {
    const catalog = createToolSearch([
      { name: 'help', description: 'Shows help.' },
      { name: 'convert_currency', description: 'Converts an amount between currencies.' },
      { name: 'convert_units', description: 'Converts units.' },
      { name: 'currency_rates', description: 'Exchange rates of a currency.' },
    ]);
    // "help" is rare in this catalog, so counted in full it would rank second; the tools of the task come first.
    expect(names(await catalog.search('could you please help me, I want to convert currency', { topK: 3 }))).toEqual([
      'convert_currency',
      'convert_units',
      'currency_rates',
    ]);
    // Alone, a phrasing word still finds what it names.
    expect(names(await catalog.search('help', { topK: 1 }))).toEqual(['help']);
  });

  it('forgets the words of a removed tool, prefixes included', async () => {
    const live = createToolSearch(tools);
    expect(names(await live.search('emai', { topK: 1 }))).toEqual(['send-email']);
    live.update(tools.filter((tool) => tool.name !== 'send-email'));
    expect(await live.search('emai')).toEqual([]);
    expect(await live.search('recipient')).toEqual([]);
    live.update(tools);
    expect(names(await live.search('emai', { topK: 1 }))).toEqual(['send-email']);
  });

  it('indexes a group name and its description with each of its tools', async () => {
    const grouped = createToolSearch(
      [
        { name: 'list_items', description: 'Lists items.', group: 'jira' },
        { name: 'list_rows', description: 'Lists rows.', group: 'sheets' },
      ],
      {
        groups: { sheets: { description: 'Spreadsheets in the cloud.' } },
      },
    );
    expect(names(await grouped.search('jira', { topK: 1 }))).toEqual(['list_items']);
    expect(names(await grouped.search('spreadsheet', { topK: 1 }))).toEqual(['list_rows']);
  });
});

describe('explain: why the search ranked each tool', async () => {
  const index = createToolSearch(tools);
  const queries = [
    'forecast for the next days',
    'weather',
    'weather +days',
    'invite people to a meeting',
    'Hello, could you please tell me the weather in the city today',
    'send a message',
  ];

  it("is the search's own ranking: its first `returned` tools are what search answers, for any options", async () => {
    const options = [
      {},
      { topK: 1 },
      { topK: 3, minScore: 0.5 },
      { minScore: 0.9 },
      { filter: (name: string) => name !== 'getCurrentWeather' },
    ];
    let compared = 0;
    for (const query of queries)
      for (const option of options) {
        const explained = await index.explain(query, option);
        const answered = await index.search(query, option);
        expect(explained.ranked.slice(0, explained.returned).map(({ name, score }) => ({ name, score }))).toEqual(answered);
        compared += answered.length;
      }
    expect(compared).toBeGreaterThan(20);
  });

  it('names the words each tool matched, in which field, with the field’s own words', async () => {
    const explained = await index.explain('invite people to a meeting');
    const event = explained.ranked.find((ranking) => ranking.name === 'calendar_create_event');
    // "People invited to the meeting." is the description of its `attendees` parameter, nothing else.
    expect(event?.words?.map((word) => [word.matched, word.fields.map((field) => `${field.field}:${field.words.join(',')}`)])).toEqual(
      expect.arrayContaining([
        ['peopl', ['parameters:people']],
        ['meet', ['parameters:meeting']],
        ['invit', ['parameters:invited']],
      ]),
    );
    // "to" and "a" are not searched.
    expect(explained.ignored).toEqual(['to', 'a']);

    const forecast = (await index.explain('forecast')).ranked[0];
    expect(forecast?.name).toBe('weather__get_forecast');
    expect(forecast?.words?.[0]?.fields.map((field) => field.field)).toEqual(['name', 'description']);
  });

  it("adds up: a tool's raw score is its words' points times its coverage to the tuned power", async () => {
    for (const query of queries) {
      for (const ranking of (await index.explain(query)).ranked) {
        const points = (ranking.words ?? []).reduce((sum, word) => sum + word.points, 0);
        expect(ranking.raw).toBeCloseTo(points * ranking.coverage ** 0.25, 10);
      }
    }
  });

  it('says where topK and minScore cut, and which tools a required word left out', async () => {
    const byTopK = await index.explain('weather', { topK: 1 });
    expect(byTopK.ranked).toHaveLength(2);
    expect([byTopK.returned, byTopK.cutBy]).toEqual([1, 'topK']);
    const byScore = await index.explain('weather', { topK: 5, minScore: 1 });
    expect(byScore.cutBy).toBe('minScore');
    expect(byScore.ranked[byScore.returned]?.score).toBeLessThan(1);
    expect((await index.explain('weather', { topK: 5 })).cutBy).toBe('none');
    // Both would cut after rank 1: the search takes one match, then stops at topK before reading the next score.
    expect(await index.explain('weather', { topK: 1, minScore: 1 })).toMatchObject({ returned: 1, cutBy: 'topK' });

    const required = await index.explain('weather +days');
    expect(required.ranked.map((ranking) => ranking.name)).toEqual(['weather__get_forecast']);
    expect(required.excluded?.map(({ name, reason, missing }) => ({ name, reason, missing }))).toEqual([
      { name: 'getCurrentWeather', reason: 'required', missing: ['dai'] },
    ]);
    expect(required.query.find((word) => word.term === 'dai')).toMatchObject({ words: ['days'], required: true, tools: 1 });
  });

  it('marks a prefix match with the longer word it matched', async () => {
    const explained = await index.explain('calend');
    expect(explained.ranked[0]?.words?.[0]).toMatchObject({ term: 'calend', matched: 'calendar', prefix: true });
  });
});

describe('tool groups and the scale rule', () => {
  it('carries a definition’s group onto the definition object', () => {
    const tool = toolDefinition({
      name: 'github__create_issue',
      description: 'Opens an issue.',
      inputSchema: { type: 'object' },
      group: 'github',
    });
    expect(tool.group).toBe('github');
    expect(toolDefinition({ name: 'plain', description: 'x', inputSchema: { type: 'object' } }).group).toBeUndefined();
  });

  const many = (count: number, groups: number) =>
    Array.from({ length: count }, (_, index) => ({
      name: `tool_${index}`,
      description: `Does thing ${index}.`,
      ...(index % 10 === 9 ? {} : { group: `server${index % groups}` }),
    }));

  it('lists names at and below the threshold, groups above it', () => {
    expect(isGrouped(GROUPED_CATALOG_ABOVE)).toBe(false);
    expect(isGrouped(GROUPED_CATALOG_ABOVE + 1)).toBe(true);
    const small = searchDiscoveryTool(many(GROUPED_CATALOG_ABOVE, 5));
    expect(small.description).toContain('Tools you can load: tool_0, tool_1');
    const large = searchDiscoveryTool(many(GROUPED_CATALOG_ABOVE + 1, 5), 'none', {
      groups: { server1: { description: 'Tickets and boards. More text.' } },
    });
    expect(large.description).not.toContain('Tools you can load:');
    expect(large.description).toContain(`${GROUPED_CATALOG_ABOVE + 1} tools in 5 groups.`);
    expect(large.description).toContain('- server1 (');
    expect(large.description).toContain('Tickets and boards.');
    expect(large.description).not.toContain('More text.');
    // Every tenth tool has no group: counted, not listed.
    expect(large.description).toContain('10 tools in no group'); // tool_9, tool_19, … tool_99
  });

  it('keeps the catalog text bounded however many tools and groups', () => {
    const at1k = groupedCatalog(many(1_000, 70)).length;
    const at10k = groupedCatalog(many(10_000, 2_000)).length;
    expect(at10k).toBeLessThan(6_000);
    expect(at1k).toBeLessThan(6_000);
    expect(groupedCatalog(many(10_000, 2_000))).toMatch(/\d+ more groups: query 'groups:' lists them all\./);
  });

  it("answers 'group:Name' with the group's tools and 'groups:' with every group", async () => {
    const catalog = many(30, 3);
    const byName = new Map(catalog.map((tool) => [tool.name, { lazy: true }]));
    const options = {
      catalog: { lookup: (name: string) => byName.get(name), searchable: () => catalog },
      already: new Set<string>(),
      mode: 'search' as const,
    };
    const listed = await answerDiscoveryCall({ query: 'group:server1' }, options);
    expect(listed.result?.group?.tools.map((tool) => tool.name)).toEqual(
      catalog.filter((tool) => tool.group === 'server1').map((tool) => tool.name),
    );
    expect(listed.loaded).toEqual([]);
    const unknown = await answerDiscoveryCall({ query: 'group:nope' }, options);
    expect(unknown.result?.note).toContain("No group 'nope'");
    const all = await answerDiscoveryCall({ query: 'groups:' }, options);
    expect(all.result?.groups?.map((entry) => entry.group).sort()).toEqual(['server0', 'server1', 'server2']);
  });
});

describe('the search hook', () => {
  const index = () => createToolSearch(tools);
  const candidates = tools.map(({ name, description }) => ({ name, description }));

  it("answers with the app's matches, ignoring names outside the request's tools", async () => {
    const { matches, report } = await runDiscoverySearch({
      query: 'anything',
      tools: candidates,
      index,
      topK: 5,
      minScore: 0,
      hook: async () => [{ name: 'TranslateText', score: 0.9 }, { name: 'not_a_tool' }, { name: 'send-email' }],
    });
    expect(names(matches)).toEqual(['TranslateText', 'send-email']);
    expect(report).toMatchObject({ by: 'app', matches: 2 });
  });

  it('falls back to the built-in search on timeout, error or a non-list, and says so', async () => {
    let aborted = false;
    const slow = await runDiscoverySearch({
      query: 'forecast',
      tools: candidates,
      index,
      topK: 1,
      minScore: 0,
      timeoutMs: 20,
      hook: (_query, { signal }) =>
        new Promise((resolve) => {
          signal.addEventListener('abort', () => {
            aborted = true;
          });
          setTimeout(() => resolve([{ name: 'TranslateText' }]), 2_000).unref?.();
        }),
    });
    expect(slow.report).toMatchObject({ by: 'built-in', fallback: 'timeout' });
    expect(names(slow.matches)).toEqual(['weather__get_forecast']);
    expect(aborted).toBe(true);
    const throwing = await runDiscoverySearch({
      query: 'forecast',
      tools: candidates,
      index,
      topK: 1,
      minScore: 0,
      hook: () => Promise.reject(new Error('down')),
    });
    expect(throwing.report).toMatchObject({ by: 'built-in', fallback: 'error' });
    const invalid = await runDiscoverySearch({
      query: 'forecast',
      tools: candidates,
      index,
      topK: 1,
      minScore: 0,
      hook: (() => ({ nope: true })) as never,
    });
    expect(invalid.report).toMatchObject({ by: 'built-in', fallback: 'invalid' });
    expect(names(invalid.matches)).toEqual(['weather__get_forecast']);
  });
});

describe('clientDiscovery() in search mode', () => {
  const browserTools: AnyTool[] = tools.map((tool) =>
    toolDefinition({
      name: tool.name.replace('.', '_'),
      description: tool.description,
      inputSchema: (tool.inputSchema ?? { type: 'object' }) as Record<string, unknown>,
      lazy: true,
    }).client(() => ({ ok: true })),
  );

  it('sends a discovery tool taking { query } and answers keyword queries with the same search as the server', async () => {
    const managed = clientDiscovery({ mode: 'search' });
    const discovery = managed.wireTools(browserTools, []).find((tool) => tool.name === DISCOVERY_TOOL_NAME);
    expect(discovery?.parameters).toMatchObject({ required: ['query'] });
    const answer = await managed.answer({ query: 'what is the forecast for Lyon' }, browserTools, new Set());
    expect(answer.result?.matches?.[0]).toMatchObject({ name: 'weather__get_forecast', score: 1 });
    expect(answer.search).toMatchObject({ by: 'built-in' });
    expect(answer.loaded).toEqual([]);
    const selected = await managed.answer({ query: 'select:send-email' }, browserTools, new Set());
    expect(selected.loaded).toEqual(['send-email']);
  });

  it('keeps name mode unchanged by default', async () => {
    const managed = clientDiscovery();
    expect(managed.wireTools(browserTools, []).find((tool) => tool.name === DISCOVERY_TOOL_NAME)?.parameters).toMatchObject({
      required: ['toolNames'],
    });
    expect((await managed.answer({ toolNames: ['send-email'] }, browserTools, new Set())).loaded).toEqual(['send-email']);
  });
});
