import { createServer, IncomingMessage, Server } from 'http';
import { AddressInfo } from 'net';
import { parseBlobMarkdown } from '@quire/content/markdown';
import type { Queryable } from '@quire/platform/db/db';
import { rebuildProjection } from '@quire/projections/rebuild';
import { AskPipeline } from './ask/ask-pipeline';
import { NOTHING_FOUND } from './ask/ask-answer';
import { decodePostings, readPositions } from './postings/postings';
import { matchingPages, PageMatch } from './postings/page-candidates';
import { PostingsCache } from './postings/postings-cache';
import { SearchableSpace, SearchQueries } from './search.queries';
import { DbKind, SearchHarness, startSearchHarness } from './testing/search-harness';
import { SAMPLE_DOCS } from './testing/sample-docs';

const KINDS: DbKind[] = ['postgres', 'pglite'];
/** The files of a space of 520 pages ("<title> page <n>", each saying that a <animal> rests): an import large enough to be analyzed. */
function largeSpaceFiles(title: string, animal: string): Record<string, string> {
  const files: Record<string, string> = { 'README.md': `# ${title}\n\nAn index of pages.\n` };
  const summary = ['# Summary', '', `* [${title}](README.md)`];
  for (let i = 0; i < 520; i++) {
    files[`l${i}.md`] = `# ${title} page ${i}\n\nA ${animal} rests.\n`;
    summary.push(`* [${title} page ${i}](l${i}.md)`);
  }
  files['SUMMARY.md'] = summary.join('\n') + '\n';
  return files;
}

const link = ({ spaceId, path, sectionId }: { spaceId: string; path: string; sectionId: string }) => `https://app.test/s/${spaceId}/${path}#${sectionId}`;

describe.each(KINDS)('search index and queries (%s)', (kind) => {
  let h: SearchHarness;
  const search = (query: string, opts: { page?: string; limit?: number; space?: string } = {}) =>
    h.queries.searchSpace(opts.space ?? 'docs', query, { page: opts.page, limit: opts.limit ?? 20 });
  const paths = async (query: string, space?: string) => (await search(query, { space })).items.map((i) => i.path);
  const titles = async (query: string, space?: string) => (await search(query, { space })).items.map((i) => i.title);
  const spaceOf = async (id: string): Promise<SearchableSpace> => {
    const s = await h.queries.space(id);
    return { id, key: s!.key, title: id, config: s!.config, revision: s!.revision };
  };

  beforeAll(async () => {
    h = await startSearchHarness(kind);
    await h.createSpace('docs');
    await h.publish('docs', SAMPLE_DOCS);
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  it('indexes the live revision as sections split at headings, with anchors, ancestors and snippets', async () => {
    const { items, count } = await search('redis');
    expect(count).toBe(1);
    expect(items[0]).toMatchObject({
      spaceId: 'docs',
      title: 'Installing Quire',
      path: 'guides/install',
      description: 'How to set up Quire on a server',
      ancestors: ['Guides'],
      rank: 1,
      pageMatch: false,
    });
    expect(items[0].sections[0]).toMatchObject({ id: 'requirements', title: 'Requirements', matchedContent: true });
    expect(items[0].sections[0].body).toContain('PostgreSQL 15 and Redis');
    expect((await search('systemd')).items[0]).toMatchObject({ path: 'guides/install/linux', ancestors: ['Guides', 'Installing Quire'] });
  });

  it('serves two SearchQueries over one pool: their named statements never clash on a connection', async () => {
    // Each names the first ranking text it builds; a connection that prepared a name for one text
    // refuses it for another (node-postgres), and sequential queries get the same pooled connection.
    const [a, b] = [new SearchQueries(h.db), new SearchQueries(h.db)];
    const one = await a.searchSpace('docs', 'install', { limit: 20 });
    const two = await b.searchSpace('docs', 'install guide', { limit: 20 });
    expect(one.items.length).toBeGreaterThan(0);
    expect((await a.searchSpace('docs', 'install guide', { limit: 20 })).items).toEqual(two.items);
    expect((await b.searchSpace('docs', 'install', { limit: 20 })).items).toEqual(one.items);
  });

  it('ranks pages whose title matches first and marks them as page results', async () => {
    const { items } = await search('elasticsearch');
    expect(items[0]).toMatchObject({ path: 'reference/elasticsearch', pageMatch: true });
    expect(items[0].sections.map((s) => s.id)).toEqual(expect.arrayContaining(['', 'host']));
  });

  it('stems words in the space language (English when none is set) and keeps stop words searchable', async () => {
    expect(await paths('installer checks')).toEqual(['guides/install']);
    expect(await paths('checking installers')).toEqual(['guides/install']);
    expect(await paths('restarting crashes')).toEqual(['guides/install/linux']);
    expect((await search('the lazy dog')).items[0].path).toBe('guides/install');
  });

  it('matches the last word as a prefix, and quoted phrases only with their words in order', async () => {
    expect(await paths('elasticsearch ho')).toEqual(['reference/elasticsearch']);
    expect((await paths('chunk_limit'))[0]).toBe('guides/configuration');
    expect(await paths('"quick brown fox"')).toEqual(['guides/install']);
    expect(await paths('"brown quick fox"')).toEqual([]);
    expect(await paths('"lazy dog" download')).toEqual(['guides/install']);
  });

  it('tolerates typos through the vocabulary', async () => {
    expect((await paths('elasticsaerch'))[0]).toBe('reference/elasticsearch');
    expect((await paths('systmd unit'))[0]).toBe('guides/install/linux');
    expect(await paths('qwxzvbnm')).toEqual([]);
  });

  it('corrects a typo only to words the searched spaces hold, closer words of other spaces left out', async () => {
    // "cade", "cede" and "cide" are one edit from "cwde" as "cwxe" is, and as close by trigrams (they
    // sort before it), but only another space holds them.
    await h.createSpace('typo-elsewhere');
    await h.publish('typo-elsewhere', { 'README.md': '# Elsewhere\n\nThe cade, the cede and the cide.\n' });
    await h.createSpace('typo-here');
    await h.publish('typo-here', { 'README.md': '# Here\n\nOnly cwxe lives here.\n' });
    expect(await titles('cwde ', 'typo-here')).toEqual(['Here']);
    expect(await titles('cwde ', 'typo-elsewhere')).toEqual(['Elsewhere']);
  });

  it('finds the one page holding a misspelling first, above the many holding the word it stems like', async () => {
    // "managment" stems to "manag", as "management" does: without the exact spelling counting,
    // the welcome page ranked below every page about management.
    const files: Record<string, string> = { 'README.md': '# Welcome\n\nThis space covers project managment for the team.\n', 'SUMMARY.md': '' };
    const summary = ['# Table of contents', '', '* [Welcome](README.md)'];
    for (let i = 0; i < 12; i++) {
      files[`management-${i}.md`] = `# Management of area ${i}\n\nManagement of area ${i}: management roles and how management works.\n`;
      summary.push(`* [Management of area ${i}](management-${i}.md)`);
    }
    files['SUMMARY.md'] = `${summary.join('\n')}\n`;
    await h.createSpace('spelling');
    await h.publish('spelling', files);
    for (const query of ['managment', 'managment ', 'project managment']) expect((await paths(query, 'spelling'))[0]).toBe('welcome');
    // The common spelling still finds every page, those holding it as written first.
    const common = await paths('management', 'spelling');
    expect(common).toHaveLength(13);
    expect(common[common.length - 1]).toBe('welcome');
  });

  it('ranks a page holding the word as written above pages holding only words of the same stem', async () => {
    await h.createSpace('forms');
    await h.publish('forms', {
      'README.md': '# Outputs\n\nOutputs and output plugins.\n',
      'SUMMARY.md': '# Table of contents\n\n* [Outputs](README.md)\n* [Output plugins](plugins.md)\n* [Formats](formats.md)\n',
      'plugins.md': '# Output plugins\n\nEvery output plugin writes outputs; output buffering.\n',
      'formats.md': '# Formats\n\nThe value is outputted as plain text.\n',
    });
    expect((await paths('outputted', 'forms'))[0]).toBe('formats');
    // A form most matches hold moves little: the page titled by the word stays first.
    expect(await paths('outputs', 'forms')).toEqual(['outputs', 'plugins', 'formats']);
  });

  it('tolerates a wrong or missing first letter, swapped letters and typos in short words', async () => {
    await h.createSpace('typos');
    await h.publish('typos', { 'README.md': '# Jobs\n\nJobs run on Kubernetes and log to Elasticsearch. Use the API key.\n' });
    expect(await titles('ubernetes', 'typos')).toEqual(['Jobs']);
    expect(await titles('lasticsearch', 'typos')).toEqual(['Jobs']);
    expect(await titles('kubernetes jbos', 'typos')).toEqual(['Jobs']);
    expect(await titles('kubernetes apu', 'typos')).toEqual(['Jobs']);
    // Two unknown words (one long, one short) corrected from one vocabulary lookup, and a word twice.
    expect(await titles('kubernetse jbos', 'typos')).toEqual(['Jobs']);
    expect(await titles('jbos jbos', 'typos')).toEqual(['Jobs']);
    expect(await titles('jbos', 'typos')).toEqual(['Jobs']);
    expect(await titles('xqzvw', 'typos')).toEqual([]);
  });

  it('finds Chinese and Japanese text by words inside runs, in order', async () => {
    expect(await paths('資料庫')).toEqual(['reference/chinese']);
    expect(await paths('備份')).toEqual(['reference/chinese']);
    expect(await paths('中文')).toEqual(['reference/chinese']);
    expect(await paths('庫資')).toEqual([]);
    expect(await paths('インストール')).toEqual(['reference/japanese']);
    expect(await paths('サーバー 手順')).toEqual(['reference/japanese']);
    expect((await search('資料庫')).items[0].sections[0].body).toContain('資料庫');
  });

  it('finds natural Chinese and Japanese questions: question words left out, most chunks of a long run, the exact run first', async () => {
    expect(await paths('資料庫是什麼')).toEqual(['reference/chinese']);
    expect(await paths('如何安裝資料庫')).toEqual(['reference/chinese']);
    expect(await paths('サーバーにインストール')).toEqual(['reference/japanese']);
    expect(await paths('インストール手順は？')).toEqual(['reference/japanese']);
    expect(await paths('資料庫 是什麼')).toEqual(['reference/chinese']);
    await h.createSpace('cjk');
    await h.publish('cjk', {
      'README.md': '# 首頁\n\n歡迎。\n',
      'SUMMARY.md': '# Table of contents\n\n* [首頁](README.md)\n* [策略](strategy.md)\n* [備份](backup.md)\n* [其他](other.md)\n',
      'strategy.md': '# 策略\n\n資料庫的備份與還原策略說明。\n',
      'backup.md': '# 備份\n\n本章說明資料庫備份策略。\n',
      'other.md': '# 其他\n\n策略與規劃。\n',
    });
    // All of the run in order first, then the page holding most of its chunks; one chunk is not enough.
    expect(await paths('資料庫備份策略', 'cjk')).toEqual(['backup', 'strategy']);
  });

  it('finds a lone CJK character wherever it is, the last of a run included', async () => {
    await h.createSpace('chars');
    await h.publish('chars', { 'README.md': '# 說明\n\n內容。設定。インストール手順\n' });
    for (const ch of ['容', '定', '順', '內', '手']) expect([ch, await titles(ch, 'chars')]).toEqual([ch, ['說明']]);
  });

  it('stems a fully typed last word: "runs" finds "run" even when another space knows "runs"', async () => {
    await h.createSpace('stem');
    await h.publish('stem', { 'README.md': '# Jobs\n\nRun the worker to process queued jobs.\n' });
    expect(await paths('runs', 'docs')).toEqual(['guides/install']); // "runs" is in the vocabulary
    expect(await titles('runs', 'stem')).toEqual(['Jobs']);
    expect(await titles('worker runs', 'stem')).toEqual(['Jobs']);
    expect(await titles('ru', 'stem')).toEqual(['Jobs']);
  });

  it('pages results with keyset cursors that carry the global rank', async () => {
    const first = await search('server', { limit: 1 });
    expect(first.count).toBeGreaterThan(1);
    expect(first.items).toHaveLength(1);
    expect(first.next?.page).toEqual(expect.any(String));
    const second = await search('server', { limit: 1, page: first.next!.page });
    expect(second.items[0].rank).toBe(2);
    expect(second.items[0].pageId).not.toBe(first.items[0].pageId);
    const all = await search('server', { limit: 100 });
    expect(all.items.slice(0, 2).map((i) => i.pageId)).toEqual([first.items[0].pageId, second.items[0].pageId]);
    await expect(search('server', { page: 'not-a-cursor' })).rejects.toThrow(/cursor/i);
  });

  it('cuts snippets around the match in long sections', async () => {
    const filler = Array.from({ length: 80 }, (_, i) => `Sentence number ${i} talks about nothing special.`).join(' ');
    await h.createSpace('long');
    await h.publish('long', { 'README.md': `# Long\n\n${filler} The needle hides here. ${filler}\n` });
    const body = (await search('needle', { space: 'long' })).items[0].sections[0].body;
    expect(body).toMatch(/^….*needle.*…$/);
    expect(body.length).toBeLessThan(260);
  });

  it("indexes only live revisions: never a change request's, only what the space stream makes live", async () => {
    await h.createSpace('cr');
    await h.publish('cr', { 'README.md': '# Home\n\nFirst words.\n' });
    const draft = await h.publish('cr', { 'README.md': '# Home\n\nBrand new zeppelin words.\n' }, { changeRequestId: 'cr1', makeLive: false });
    expect(await paths('zeppelin', 'cr')).toEqual([]);
    // Even pointed at, a change request's revision is not indexed...
    await h.append('space-cr', [{ type: 'SpaceRevisionChanged', data: { spaceId: 'cr', revision: draft.revision } }]);
    expect(await paths('zeppelin', 'cr')).toEqual([]);
    // ...the merge records it on the space stream, and that is what goes live.
    await h.append('space-cr', [{ type: 'RevisionCreated', data: { spaceId: 'cr', revision: draft.revision, parents: [], kind: 'merge', pages: draft.pages, files: [], createdAt: new Date().toISOString() } }]);
    expect(await titles('zeppelin', 'cr')).toEqual(['Home']);
    expect(await paths('first', 'cr')).toEqual([]);
  });

  it('indexes a revision whose SpaceRevisionChanged arrives before its RevisionCreated', async () => {
    await h.createSpace('late');
    const rev = await h.publish('late', { 'README.md': '# Late\n\nA walrus arrives.\n' }, { makeLive: false });
    // Recorded again after the move (as a fast-forward merge does): the space stream sees the move first.
    await h.append('space-late', [{ type: 'SpaceRevisionChanged', data: { spaceId: 'late', revision: 'c'.repeat(40) } }]);
    expect(await paths('walrus', 'late')).toEqual([]);
    const other = await h.publish('late', { 'README.md': '# Late\n\nA narwhal arrives.\n' }, { makeLive: false });
    await h.append('space-late', [{ type: 'SpaceRevisionChanged', data: { spaceId: 'late', revision: rev.revision } }]);
    expect(await titles('walrus', 'late')).toEqual(['Late']);
    expect(other.revision).not.toBe(rev.revision);
  });

  it('keeps rows of unchanged pages and parses a blob only once', async () => {
    await h.createSpace('incr');
    const files = { ...SAMPLE_DOCS };
    // The same files at the same second as space 'docs': the very same commit, with other page ids.
    await h.publish('incr', files);
    const before = h.indexed.filter((x) => x.spaceId === 'incr').pop()!.stats;
    expect(before).toMatchObject({ pages: 7, reindexed: 7, removed: 0 });
    expect(before.parsedBlobs).toBe(0); // the same blobs as space 'docs': cached by blob id

    files['guides/linux.md'] = '# On Linux\n\n## Systemd unit\n\nCreate a systemd unit; journald keeps its logs.\n';
    files['SUMMARY.md'] = files['SUMMARY.md'].replace('[Configuration]', '[Settings]');
    await h.publish('incr', files);
    const after = h.indexed.filter((x) => x.spaceId === 'incr').pop()!.stats;
    expect(after).toMatchObject({ pages: 7, reindexed: 2, removed: 0, parsedBlobs: 1 });
    expect(await paths('journald', 'incr')).toEqual(['guides/install/linux']);
    expect((await search('settings', { space: 'incr' })).items[0]).toMatchObject({ title: 'Settings', pageMatch: true });
    expect(await paths('redis', 'incr')).toEqual(['guides/install']);
  });

  it('leaves the process cache of parsed documents to reads: indexing keeps sections only', async () => {
    const { blob } = (await h.db.query<{ blob: string }>(`SELECT blob FROM rm_search_pages WHERE space_id = 'docs' AND path = 'guides/install'`)).rows[0];
    // parseBlobMarkdown trusts a blob id to name its bytes: a document the index had cached under
    // this id would be returned in place of the markdown given now.
    expect(JSON.stringify(parseBlobMarkdown(blob, '# Installing Quire\n\nRead words.\n').document)).toContain('Read words.');
  });

  it('keeps each lexeme\'s postings equal to the pages whose sections hold it, through updates', async () => {
    // After 'incr' was published twice (two pages changed): what the postings say, page by page.
    const postings = await h.db.query<{ lexeme: string; entries: Uint8Array }>(
      `SELECT p.lexeme, p.entries FROM rm_search_postings p JOIN rm_search_spaces s ON s.key = p.space_key WHERE s.space_id = 'incr'`,
    );
    const pageOf = new Map(
      (await h.db.query<{ key: number; page_id: string }>(`SELECT key, page_id FROM rm_search_pages WHERE space_id = 'incr'`)).rows.map((r) => [r.key, r.page_id]),
    );
    const listed = new Map<string, number>();
    for (const row of postings.rows) {
      const { keys, impacts } = decodePostings(row.entries);
      keys.forEach((key, i) => listed.set(`${row.lexeme} ${pageOf.get(key) ?? `gone page ${key}`}`, impacts[i]));
    }
    const held = await h.db.query<{ lexeme: string; page_id: string; rank: number; in_title: boolean }>(
      `SELECT x.lexeme, s.page_id, max(ts_rank('{0.2, 0.1, 0.5, 1.0}', s.tsv, quote_literal(x.lexeme)::tsquery, 1))::float8 AS rank,
              bool_or(p.title_tsv @@ quote_literal(x.lexeme)::tsquery) AS in_title
         FROM rm_search_sections s JOIN rm_search_pages p USING (space_id, page_id)
         CROSS JOIN LATERAL unnest(tsvector_to_array(s.tsv)) AS x(lexeme)
        WHERE s.space_id = 'incr' GROUP BY x.lexeme, s.page_id`,
    );
    expect(new Set(listed.keys())).toEqual(new Set(held.rows.map((r) => `${r.lexeme} ${r.page_id}`)));
    // A lexeme's impact on a page is what ts_rank gives its best section for it (plus a share for the title's).
    for (const row of held.rows.filter((r) => !r.in_title)) expect(listed.get(`${row.lexeme} ${row.page_id}`)).toBeCloseTo(row.rank, 5);
  });

  it("keeps each lexeme's positions on a page equal to its sections' tsvector positions, through updates", async () => {
    const postings = await h.db.query<{ lexeme: string; entries: Uint8Array; positions: Uint8Array }>(
      `SELECT p.lexeme, p.entries, p.positions FROM rm_search_postings p JOIN rm_search_spaces s ON s.key = p.space_key WHERE s.space_id = 'incr'`,
    );
    const pageOf = new Map(
      (await h.db.query<{ key: number; page_id: string }>(`SELECT key, page_id FROM rm_search_pages WHERE space_id = 'incr'`)).rows.map((r) => [r.key, r.page_id]),
    );
    const listed = new Map<string, number[]>();
    for (const row of postings.rows) {
      const { keys, positions } = decodePostings(row.entries, row.positions);
      keys.forEach((key, i) => listed.set(`${row.lexeme} ${pageOf.get(key)}`, readPositions(positions!.bytes, positions!.offsets[i])));
    }
    const held = await h.db.query<{ lexeme: string; page_id: string; positions: number[] }>(
      `SELECT x.lexeme, s.page_id, array_agg(s.ord * 16384 + p ORDER BY s.ord, p) AS positions
         FROM rm_search_sections s CROSS JOIN LATERAL unnest(s.tsv) AS x CROSS JOIN LATERAL unnest(x.positions) AS p
        WHERE s.space_id = 'incr' GROUP BY x.lexeme, s.page_id`,
    );
    expect(held.rows.length).toBeGreaterThan(100);
    expect(Object.fromEntries(listed)).toEqual(Object.fromEntries(held.rows.map((r) => [`${r.lexeme} ${r.page_id}`, r.positions])));
  });

  it('reads no postings list when a lexeme every match must hold is in none of the spaces; any-of and prefixes still match', async () => {
    const { key } = await spaceOf('docs');
    let rows = 0;
    const counting: Queryable = {
      query: async <R>(sql: string, params?: unknown[]) => {
        const r = await h.db.query<R>(sql, params);
        rows += r.rows.length;
        return r;
      },
    };
    const found = async (match: PageMatch) => {
      rows = 0;
      return { total: (await matchingPages(counting, [key], match, [], new PostingsCache())).scores.keys.length, rows };
    };
    const alone = await found({ lexeme: 'elasticsearch' });
    expect(alone.total).toBeGreaterThan(0);
    expect(await found({ all: [{ lexeme: 'elasticsearch' }, { prefix: 'ho' }, { lexeme: 'qwxzvbnm' }] })).toEqual({ total: 0, rows: 0 });
    expect(await found({ phrase: ['qwxzvbnm', 'elasticsearch'] })).toEqual({ total: 0, rows: 0 });
    expect((await found({ any: [{ lexeme: 'qwxzvbnm' }, { lexeme: 'elasticsearch' }] })).total).toBe(alone.total);
    expect((await found({ all: [{ any: [{ lexeme: 'qwxzvbnm' }, { lexeme: 'elasticsearch' }] }, { prefix: 'elasticsearc' }] })).total).toBe(alone.total);
  });

  it('reads and decodes a space\'s list of a lexeme again only once the index has rewritten it (the postings cache)', async () => {
    await h.createSpace('cached');
    const files: Record<string, string> = {
      'README.md': '# Cached\n\nA narwhal swims here.\n',
      'other.md': '# Other\n\nNothing of note.\n',
      'SUMMARY.md': '# Summary\n\n* [Cached](README.md)\n* [Other](other.md)\n',
    };
    await h.publish('cached', files);
    const { key } = await spaceOf('cached');
    const read: string[] = [];
    const counting: Queryable = {
      query: async <R>(sql: string, params?: unknown[]) => {
        const r = await h.db.query<R>(sql, params);
        for (const row of r.rows as Array<{ lexeme?: string; entries?: unknown }>) if (row.entries) read.push(row.lexeme!);
        return r;
      },
    };
    const cache = new PostingsCache();
    const found = async (match: PageMatch) => {
      read.length = 0;
      const pages = (await matchingPages(counting, [key], match, [], cache)).scores.keys.length;
      return { pages, read: [...read].sort() };
    };
    expect(await found({ lexeme: 'narwhal' })).toEqual({ pages: 1, read: ['narwhal'] });
    const decoded = (await matchingPages(counting, [key], { lexeme: 'narwhal' }, [], cache)).scores;
    // Kept decoded, too: the same lists, not decoded again.
    expect((await matchingPages(counting, [key], { lexeme: 'narwhal' }, [], cache)).scores).toBe(decoded);
    expect(await found({ lexeme: 'narwhal' })).toEqual({ pages: 1, read: [] });
    // A phrase needs the positions, which the list was kept without.
    expect(await found({ phrase: ['narwhal', 'swim'] })).toEqual({ pages: 1, read: ['narwhal', 'swim'] });
    expect(await found({ phrase: ['narwhal', 'swim'] })).toEqual({ pages: 1, read: [] });
    files['other.md'] = '# Other\n\nA second narwhal.\n';
    await h.publish('cached', files);
    expect(await found({ lexeme: 'narwhal' })).toEqual({ pages: 2, read: ['narwhal'] });
    expect((await matchingPages(counting, [key], { lexeme: 'narwhal' }, [], cache)).scores).not.toBe(decoded);
    expect(await found({ phrase: ['narwhal', 'swim'] })).toEqual({ pages: 1, read: ['narwhal'] });
  });

  it('ranks exactly among the best pages by their postings when many pages match, and pages through all of them', async () => {
    const files: Record<string, string> = { 'README.md': '# Many\n\nAn index of pages.\n' };
    const summary = ['# Summary', '', '* [Many](README.md)', '* [Walrus care](walrus.md)'];
    files['walrus.md'] = '# Walrus care\n\nFeeding and housing.\n';
    for (let i = 0; i < 260; i++) {
      files[`p${i}.md`] = `# Page ${i}\n\n${'Plain words about feeding. '.repeat(1 + (i % 7))}A walrus appears once.\n`;
      summary.push(`* [Page ${i}](p${i}.md)`);
    }
    files['SUMMARY.md'] = summary.join('\n') + '\n';
    await h.createSpace('many');
    await h.publish('many', files);
    const first = await search('walrus', { space: 'many', limit: 100 });
    expect(first.items[0]).toMatchObject({ title: 'Walrus care', pageMatch: true });
    expect(first.count).toBe(261);
    const seen = new Set(first.items.map((i) => i.pageId));
    let next = first.next?.page;
    while (next) {
      const more = await search('walrus', { space: 'many', limit: 100, page: next });
      for (const item of more.items) seen.add(item.pageId);
      expect(more.items[0].rank).toBeGreaterThan(100);
      next = more.next?.page;
    }
    expect(seen.size).toBe(261);
  });

  it('reads the postings once when the candidates take more than one round (most pages hold every word, few a section with all)', async () => {
    const files: Record<string, string> = { 'README.md': '# Rounds\n\nAn index of pages.\n' };
    const summary = ['# Summary', '', '* [Rounds](README.md)'];
    for (let i = 0; i < 260; i++) {
      const both = i < 20 ? '\n## Both\n\nThe narwhal and the okapi together.\n' : '';
      files[`r${i}.md`] = `# Page ${i}\n\nA narwhal swims.\n\n## Elsewhere\n\nAn okapi grazes.\n${both}`;
      summary.push(`* [Page ${i}](r${i}.md)`);
    }
    files['SUMMARY.md'] = summary.join('\n') + '\n';
    await h.createSpace('rounds');
    await h.publish('rounds', files);
    const statements: string[] = [];
    const counting: Queryable = {
      query: async <R>(sql: string, params?: unknown[]) => {
        statements.push(sql);
        return h.db.query<R>(sql, params);
      },
    };
    const queries = new SearchQueries(counting);
    const result = await queries.searchSpace('rounds', 'narwhal okapi', { limit: 100 });
    expect(result.count).toBe(20);
    expect(result.items.map((i) => i.path).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `r${i}`).sort());
    // Two rounds of ranking (202 candidates of 261 gave 20 results), one read of the postings.
    expect(statements.filter((s) => s.includes('candidate_sections')).length).toBe(2);
    expect(statements.filter((s) => s.includes('FROM rm_search_postings WHERE lexeme = ANY')).length).toBe(1);
  });

  it('analyzes a large import: row counts of every table, column statistics only where queries filter or join', async () => {
    // Autovacuum would analyze these tables whole on its own schedule: kept out of the picture.
    for (const table of ['rm_search_sections', 'rm_search_postings', 'rm_search_pages', 'rm_search_texts']) {
      await h.db.query(`ALTER TABLE ${table} SET (autovacuum_enabled = false)`);
    }
    await h.createSpace('large');
    await h.publish('large', largeSpaceFiles('Large', 'capybara'));
    // Taken after the import's commit (see the next test): searchable before, analyzed now.
    await h.projector.afterCommitsDone();
    const counted = await h.db.query<{ table: string; rows: number }>(
      `SELECT relname AS table, reltuples::float8 AS rows FROM pg_class
        WHERE relname IN ('rm_search_sections', 'rm_search_postings', 'rm_search_pages', 'rm_search_texts') ORDER BY relname`,
    );
    for (const { rows } of counted.rows) expect(rows).toBeGreaterThanOrEqual(520);
    const columns = await h.db.query<{ table: string; column: string }>(
      `SELECT tablename AS table, attname AS column FROM pg_stats
        WHERE tablename IN ('rm_search_sections', 'rm_search_postings', 'rm_search_pages', 'rm_search_texts') ORDER BY 1, 2`,
    );
    const analyzed = (table: string) => columns.rows.filter((r) => r.table === table).map((r) => r.column);
    expect(analyzed('rm_search_sections')).toEqual(['ord', 'page_id', 'space_id', 'tsv']);
    expect(analyzed('rm_search_postings')).toEqual(expect.arrayContaining(['lexeme', 'space_key']));
    expect(analyzed('rm_search_pages')).toEqual(['key', 'page_id', 'space_id']);
    expect(analyzed('rm_search_texts')).toEqual(['ord', 'page_id', 'space_id']);
  });

  it('takes the statistics of a large import after its transaction, not inside it (the import is searchable without waiting for them)', async () => {
    const files = largeSpaceFiles('Later', 'quokka');
    await h.createSpace('later');
    const analyzed: Array<'inside' | 'after'> = [];
    // Every statement the projector sends: inside one of its transactions, or on its own.
    const db = h.db as any;
    const { transaction, query } = db;
    db.query = (sql: string, ...rest: unknown[]) => {
      if (sql.startsWith('ANALYZE')) analyzed.push('after');
      return query.call(h.db, sql, ...rest);
    };
    db.transaction = (fn: (tx: Queryable) => Promise<unknown>, ...rest: unknown[]) =>
      transaction.call(
        h.db,
        (tx: Queryable) =>
          fn({
            query: (sql: string, ...args: unknown[]) => {
              if (sql.startsWith('ANALYZE')) analyzed.push('inside');
              return (tx.query as any)(sql, ...args);
            },
          }),
        ...rest,
      );
    try {
      await h.publish('later', files);
      await h.projector.afterCommitsDone();
    } finally {
      db.transaction = transaction;
      db.query = query;
    }
    expect(analyzed).toEqual(['after']);
    expect((await h.queries.searchSpace('later', 'quokka', { limit: 5 })).count).toBe(520);
  });

  it('stems with the space language and re-indexes when it changes', async () => {
    const hasLexeme = async (spaceId: string, lexeme: string) =>
      (await h.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM rm_search_sections WHERE space_id = $1 AND tsv @@ $2::tsquery`, [spaceId, `'${lexeme}'`])).rows[0].n > 0;
    await h.createSpace('fr', { language: 'fr' });
    await h.publish('fr', { 'README.md': '# Accueil\n\nLes serveurs démarrent rapidement.\n' });
    expect(await hasLexeme('fr', 'serveur')).toBe(true);
    expect(await titles('serveur', 'fr')).toEqual(['Accueil']);

    await h.createSpace('ja', { language: 'ja' });
    await h.publish('ja', { 'README.md': '# Home\n\nThe installers are running.\n' });
    expect(await hasLexeme('ja', 'instal')).toBe(false);
    expect(await hasLexeme('ja', 'installers')).toBe(true);
    await h.append('space-ja', [{ type: 'SpaceUpdated', data: { spaceId: 'ja', changes: { language: 'en' }, at: new Date().toISOString() } }]);
    expect(await hasLexeme('ja', 'instal')).toBe(true);
  });

  it('hides deleted spaces and shows them again when restored', async () => {
    await h.createSpace('gone');
    await h.publish('gone', { 'README.md': '# Gone\n\nPlatypus facts.\n' });
    await h.append('space-gone', [{ type: 'SpaceDeleted', data: { spaceId: 'gone', at: new Date().toISOString() } }]);
    expect(await paths('platypus', 'gone')).toEqual([]);
    await h.append('space-gone', [{ type: 'SpaceRestored', data: { spaceId: 'gone', at: new Date().toISOString() } }]);
    expect(await titles('platypus', 'gone')).toEqual(['Gone']);
  });

  it('searches several spaces at once, each with its own language', async () => {
    const spaces = [await spaceOf('docs'), await spaceOf('fr')];
    const result = await h.queries.searchSpaces(spaces, 'serveurs', { limit: 10 });
    expect(result.items.map((i) => [i.spaceId, i.title])).toEqual([['fr', 'Accueil']]);
    const both = await h.queries.searchSpaces(spaces, 'server', { limit: 10 });
    expect(new Set(both.items.map((i) => i.spaceId))).toEqual(new Set(['docs']));
  });

  it('rebuilds into the same rows', async () => {
    const snapshot = async () => {
      const r = await h.db.query(
        `SELECT s.space_id, s.page_id, s.ord, s.tsv::text AS tsv, x.section_id, x.title, x.body, p.path, p.title AS page_title
           FROM rm_search_sections s JOIN rm_search_texts x USING (space_id, page_id, ord) JOIN rm_search_pages p USING (space_id, page_id)
          ORDER BY s.space_id, s.page_id, s.ord`,
      );
      return r.rows;
    };
    // Postings by page id: keys are whatever the tables' identities handed out.
    const postings = async () => {
      const pages = new Map((await h.db.query<{ key: number; space_id: string; page_id: string }>(`SELECT key, space_id, page_id FROM rm_search_pages`)).rows.map((r) => [r.key, `${r.space_id}/${r.page_id}`]));
      const r = await h.db.query<{ lexeme: string; entries: Uint8Array }>(`SELECT lexeme, entries FROM rm_search_postings`);
      return r.rows.flatMap((row) => [...decodePostings(row.entries).keys].map((key) => `${row.lexeme} ${pages.get(key)}`)).sort();
    };
    const before = await snapshot();
    const postingsBefore = await postings();
    await rebuildProjection({ db: h.db, store: h.store, projection: h.projection });
    expect(await snapshot()).toEqual(before);
    expect(await postings()).toEqual(postingsBefore);
    expect(await paths('redis')).toEqual(['guides/install']);
  });

  describe('ask', () => {
    it('answers from the best sections, citing pages and sections, with follow-up questions', async () => {
      const ask = new AskPipeline(h.queries);
      const answer = await ask.ask({ spaces: [await spaceOf('docs')], query: 'How do I tune the buffer chunk size?', link });
      expect(answer.markdown).toContain('chunk\\_limit\\_size');
      expect(answer.markdown).toContain('https://app.test/s/docs/guides/configuration#buffer-settings');
      expect(answer.sources[0]).toMatchObject({ type: 'page', space: 'docs', revision: expect.stringMatching(/^[0-9a-f]{40}$/), sections: expect.arrayContaining(['buffer-settings']) });
      expect(answer.sources[0].reason).toMatch(/chunk/);
      expect(Array.isArray(answer.followupQuestions)).toBe(true);
    });

    it('says so plainly when nothing relevant is found', async () => {
      const ask = new AskPipeline(h.queries);
      const answer = await ask.ask({ spaces: [await spaceOf('docs')], query: 'What is the airspeed velocity of an unladen swallow?', link });
      expect(answer).toEqual({ markdown: NOTHING_FOUND, sources: [], followupQuestions: [] });
    });

    it('uses the previous question for a short follow-up', async () => {
      const ask = new AskPipeline(h.queries);
      const answer = await ask.ask({ spaces: [await spaceOf('docs')], query: 'and the unit?', previousQueries: ['How do I run it with systemd?'], link });
      expect(answer.sources.map((s) => s.page)).toHaveLength(1);
      expect(answer.markdown).toContain('systemd');
    });

    it('answers Chinese and Japanese questions from the share of their chunks a section holds', async () => {
      const ask = new AskPipeline(h.queries);
      const docs = [await spaceOf('docs')];
      for (const [query, path] of [
        ['資料庫是什麼', 'reference/chinese'],
        ['如何安裝資料庫', 'reference/chinese'],
        ['資料庫 是什麼', 'reference/chinese'],
        ['サーバーにインストール', 'reference/japanese'],
        ['インストール手順は？', 'reference/japanese'],
      ]) {
        const answer = await ask.ask({ spaces: docs, query, link });
        expect([query, answer.markdown]).not.toEqual([query, NOTHING_FOUND]);
        expect([query, answer.markdown]).toEqual([query, expect.stringContaining(`/docs/${path}#`)]);
      }
      // One chunk of four is not enough.
      expect((await ask.ask({ spaces: docs, query: '資料結構分析', link })).markdown).toBe(NOTHING_FOUND);
    });

    it('uses earlier questions as context, the most recent first, below the question itself', async () => {
      await h.createSpace('ctx');
      await h.publish('ctx', {
        'README.md': '# Home\n\nWelcome.\n',
        'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [Retries](retries.md)\n* [Zeppelins](zeppelins.md)\n',
        'retries.md': '# Retries\n\nFailed jobs are retried with exponential backoff.\n',
        'zeppelins.md': '# Zeppelins\n\nZeppelins fly slowly over the harbour.\n',
      });
      const ask = new AskPipeline(h.queries);
      const space = [await spaceOf('ctx')];
      const both = await ask.ask({ spaces: space, query: 'what about it?', previousQueries: ['How are jobs retried?', 'Where do zeppelins fly?'], link });
      expect(both.sources).toHaveLength(2);
      expect(both.markdown.indexOf('/ctx/zeppelins#')).toBeLessThan(both.markdown.indexOf('/ctx/retries#'));
      expect(both.markdown).toContain('/ctx/retries#');
      // The question's own terms come first; the context only orders what they find.
      const own = await ask.ask({ spaces: space, query: 'How do zeppelins fly?', previousQueries: ['How are jobs retried?'], link });
      expect(own.sources).toHaveLength(1);
      expect(own.markdown).toContain('/ctx/zeppelins#');
    });

    describe('with a model', () => {
      let server: Server;
      let url: string;
      const requests: Array<{ headers: IncomingMessage['headers']; body: any; path: string }> = [];
      let reply: (body: any) => { status: number; json: unknown } = () => ({ status: 200, json: {} });

      beforeAll(async () => {
        server = createServer((req, res) => {
          let raw = '';
          req.on('data', (c) => (raw += c));
          req.on('end', () => {
            const body = JSON.parse(raw);
            requests.push({ headers: req.headers, body, path: req.url ?? '' });
            const { status, json } = reply(body);
            res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
          });
        });
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
      });
      afterAll(async () => {
        await new Promise((resolve) => server.close(resolve));
      });

      it('sends only the retrieved sections and turns citations into links', async () => {
        reply = () => ({ status: 200, json: { choices: [{ message: { role: 'assistant', content: 'Set `chunk_limit_size` [1].' } }] } });
        const ask = new AskPipeline(h.queries, { model: { url, model: 'tiny', key: 'sk-test' } });
        const answer = await ask.ask({ spaces: [await spaceOf('docs')], query: 'How do I tune the buffer chunk size?', link });
        const request = requests.pop()!;
        expect(request.path).toBe('/v1/chat/completions');
        expect(request.headers.authorization).toBe('Bearer sk-test');
        expect(request.body.model).toBe('tiny');
        const prompt = request.body.messages.map((m: any) => m.content).join('\n');
        expect(prompt).toContain('chunk_limit_size');
        expect(prompt).toContain('How do I tune the buffer chunk size?');
        expect(prompt).not.toContain('systemd');
        expect(answer.markdown).toBe('Set `chunk_limit_size` [1](https://app.test/s/docs/guides/configuration#buffer-settings).');
        expect(answer.sources).toEqual([expect.objectContaining({ page: expect.any(String), sections: ['buffer-settings'], reason: 'Cited in the answer' })]);
      });

      it('falls back to the extractive answer when the model fails', async () => {
        reply = () => ({ status: 500, json: { error: 'boom' } });
        const ask = new AskPipeline(h.queries, { model: { url: `${url}/chat/completions`, model: 'tiny' } });
        const answer = await ask.ask({ spaces: [await spaceOf('docs')], query: 'How do I tune the buffer chunk size?', link });
        expect(requests.pop()!.path).toBe('/v1/chat/completions');
        expect(answer.markdown).toContain('chunk\\_limit\\_size');
      });

      it('answers from the sources when the model is slow, and leaves a failing model alone for a while', async () => {
        // Wide enough that "waited for the model" and "did not" cannot be confused on a slow machine.
        const MODEL_TIMEOUT_MS = 1_000;
        let slowRequests = 0;
        const slow = createServer((req) => {
          slowRequests++;
          req.resume(); // never answers
        });
        await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
        try {
          const slowUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/v1`;
          const ask = new AskPipeline(h.queries, { model: { url: slowUrl, model: 'tiny' }, timeoutMs: MODEL_TIMEOUT_MS, breaker: { failures: 2, cooldownMs: 1_500 } });
          const question = { spaces: [await spaceOf('docs')], query: 'How do I tune the buffer chunk size?', link };
          const timed = async () => {
            const started = Date.now();
            const answer = await ask.ask(question);
            return { ms: Date.now() - started, answer };
          };
          const first = await timed();
          expect(first.answer.markdown).toContain('chunk\\_limit\\_size');
          expect(first.ms).toBeGreaterThanOrEqual(MODEL_TIMEOUT_MS - 50);
          expect(first.ms).toBeLessThan(MODEL_TIMEOUT_MS + 2_000);
          await timed();
          expect(slowRequests).toBe(2);
          // Two failures in a row: the model is skipped, the answer comes without waiting for it.
          const skipped = await timed();
          expect(slowRequests).toBe(2);
          expect(skipped.ms).toBeLessThan(MODEL_TIMEOUT_MS);
          expect(skipped.answer.markdown).toContain('chunk\\_limit\\_size');
          // After the cooldown it is tried again.
          await new Promise((resolve) => setTimeout(resolve, 1_600));
          await timed();
          expect(slowRequests).toBe(3);
        } finally {
          slow.closeAllConnections();
          await new Promise((resolve) => slow.close(resolve));
        }
      });

      it('does not call the model when nothing relevant is found', async () => {
        const before = requests.length;
        const ask = new AskPipeline(h.queries, { model: { url, model: 'tiny' } });
        const answer = await ask.ask({ spaces: [await spaceOf('docs')], query: 'unladen swallow airspeed', link });
        expect(answer.markdown).toBe(NOTHING_FOUND);
        expect(requests.length).toBe(before);
      });
    });
  });
});
