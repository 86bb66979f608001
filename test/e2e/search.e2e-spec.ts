import { mkdtempSync, rmSync } from 'fs';
import { createServer, Server } from 'http';
import { AddressInfo } from 'net';
import { tmpdir } from 'os';
import { join } from 'path';
import { GitBookAPI } from '@gitbook/api';
import { createRepoFromFiles, startGitHttpServer } from '../support/git-http-server';
import { startTestQuire, TestQuire } from '../support/quire-app';
import { validateSchema } from '../support/openapi';
import { SAMPLE_DOCS } from '@quire/search/testing/sample-docs';

type User = Awaited<ReturnType<TestQuire['createUser']>>;

/** The HTTP status of a client call, whether it succeeded or threw GitBookAPIError. */
async function status(call: Promise<{ status: number }>): Promise<number> {
  try {
    return (await call).status;
  } catch (err: any) {
    if (typeof err?.code === 'number') return err.code;
    throw err;
  }
}

async function importInto(q: TestQuire, user: User, spaceId: string, url: string): Promise<void> {
  const r = await q.http('POST', `/v1/spaces/${spaceId}/git/import`, { token: user.token, body: { url, ref: 'refs/heads/main' } });
  expect(r.status).toBe(204);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const runs = await q.http('GET', `/v1/spaces/${spaceId}/git/imports`, { token: user.token });
    const run = runs.body.items?.[0];
    if (run && run.status === 'completed') {
      // The import run reads as completed once its own read model has the event; the search
      // index is another projection: wait for it too.
      const { projector, store } = q.started.runtime;
      await projector.waitFor(await store.headPosition(), ['SpaceRevisionChanged'], 30_000);
      return;
    }
    if (run && !['queued', 'running'].includes(run.status)) throw new Error(`import ${run.status}: ${JSON.stringify(run)}`);
    if (Date.now() > deadline) throw new Error('import did not finish');
    await new Promise((res) => setTimeout(res, 100));
  }
}

describe('search and ask (e2e, official client)', () => {
  let q: TestQuire;
  let git: Awaited<ReturnType<typeof startGitHttpServer>>;
  let root: string;
  let owner: User;
  let reader: User;
  let outsider: User;
  let orgId: string;
  let handbook: string;
  let secret: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'quire-search-git-'));
    git = await startGitHttpServer({ root });
    await createRepoFromFiles(root, 'handbook', SAMPLE_DOCS);
    await createRepoFromFiles(root, 'secret', {
      'README.md': '# Secret plans\n\n## Zeppelin fleet\n\nThe zeppelin fleet leaves at dawn.\n',
      'SUMMARY.md': '# Table of contents\n\n* [Secret plans](README.md)\n',
    });
    q = await startTestQuire();
    owner = await q.createUser('Search Owner');
    reader = await q.createUser('Search Reader');
    outsider = await q.createUser('Search Outsider');
    orgId = (await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Search Org' } })).body.id;
    await owner.api.orgs.updateMemberInOrganizationById(orgId, reader.id, { role: 'read' as any });
    handbook = (await owner.api.orgs.createSpace(orgId, { title: 'Handbook' } as any)).data.id;
    secret = (await owner.api.orgs.createSpace(orgId, { title: 'Secret' } as any)).data.id;
    await owner.api.spaces.updateSpaceById(secret, { defaultLevel: null } as any);
    await importInto(q, owner, handbook, `${git.url}/handbook.git`);
    await importInto(q, owner, secret, `${git.url}/secret.git`);
  }, 120_000);
  afterAll(async () => {
    await q?.close();
    await git?.close();
    rmSync(root, { recursive: true, force: true });
  });
  afterEach(() => {
    expect(q.violations).toEqual([]);
  });

  it('searches a space: pages with matching sections, ancestors, snippets and app URLs', async () => {
    const { data } = await reader.api.spaces.searchSpaceContent(handbook, { query: 'redis' });
    expect(data.count).toBe(1);
    expect(data.items).toEqual([
      {
        id: expect.any(String),
        title: 'Installing Quire',
        description: 'How to set up Quire on a server',
        path: 'guides/install',
        score: expect.any(Number),
        rank: 1,
        resultType: 'section',
        ancestors: [{ title: 'Guides' }],
        urls: { app: `${q.config.appUrl}/s/${handbook}/guides/install` },
        sections: [
          {
            id: 'requirements',
            title: 'Requirements',
            path: 'guides/install',
            score: expect.any(Number),
            resultType: 'section',
            body: expect.stringContaining('PostgreSQL 15 and Redis'),
            urls: { app: `${q.config.appUrl}/s/${handbook}/guides/install#requirements` },
          },
        ],
      },
    ]);
    const chinese = await reader.api.spaces.searchSpaceContent(handbook, { query: '資料庫' });
    expect(chinese.data.items[0]).toMatchObject({ title: '中文指南', urls: { app: expect.stringContaining(`/s/${handbook}/`) } });
  });

  it('pages through results with cursors and keeps the global rank', async () => {
    const first = await reader.api.spaces.searchSpaceContent(handbook, { query: 'server', limit: 1 });
    expect(first.data.items).toHaveLength(1);
    expect(first.data.next?.page).toEqual(expect.any(String));
    const second = await reader.api.spaces.searchSpaceContent(handbook, { query: 'server', limit: 1, page: first.data.next!.page });
    expect(second.data.items[0].rank).toBe(2);
    expect(second.data.items[0].id).not.toBe(first.data.items[0].id);
  });

  it('rejects a missing, empty or too long query and bad limits with 400', async () => {
    for (const path of [
      `/v1/spaces/${handbook}/search`,
      `/v1/spaces/${handbook}/search?query=`,
      `/v1/spaces/${handbook}/search?query=${'a'.repeat(513)}`,
      `/v1/spaces/${handbook}/search?query=x&limit=1001`,
      `/v1/spaces/${handbook}/search?query=x&page=garbage`,
      `/v1/orgs/${orgId}/search`,
    ]) {
      const r = await q.http('GET', path, { token: reader.token });
      expect({ path, status: r.status, code: r.body?.error?.code }).toEqual({ path, status: 400, code: 400 });
    }
    expect((await q.http('GET', `/v1/spaces/${handbook}/search?query=${'a'.repeat(512)}`, { token: reader.token })).status).toBe(200);
  });

  it('answers 401 without a token and 404 for spaces and organizations the caller cannot see', async () => {
    expect((await q.http('GET', `/v1/spaces/${handbook}/search?query=redis`)).status).toBe(401);
    expect(await status(outsider.api.spaces.searchSpaceContent(handbook, { query: 'redis' }))).toBe(404);
    expect(await status(reader.api.spaces.searchSpaceContent(secret, { query: 'zeppelin' }))).toBe(404);
    expect(await status(outsider.api.orgs.searchOrganizationContent(orgId, { query: 'redis' }))).toBe(404);
    expect(await status(outsider.api.orgs.askInOrganization(orgId, { query: 'redis?' }))).toBe(404);
  });

  it('searches an organization, grouped by space, only in spaces the caller can read', async () => {
    const mine = await owner.api.orgs.searchOrganizationContent(orgId, { query: 'zeppelin' });
    expect(mine.data.items).toEqual([{ type: 'space', id: secret, title: 'Secret', score: expect.any(Number), pages: [expect.objectContaining({ title: 'Secret plans', rank: 1 })] }]);
    const theirs = await reader.api.orgs.searchOrganizationContent(orgId, { query: 'zeppelin' });
    expect(theirs.data).toEqual({ items: [], count: 0 });

    const both = await owner.api.orgs.searchOrganizationContent(orgId, { query: 'server' });
    expect(both.data.items.map((s) => s.id)).toEqual([handbook]);
    const ranks = both.data.items.flatMap((s) => s.pages.map((p) => p.rank));
    expect(ranks).toEqual(ranks.map((_, i) => i + 1));
    for (const space of both.data.items) expect(space.score).toBe(Math.max(...space.pages.map((p) => p.score)));
  });

  it('follows the live revision: a new import replaces the indexed pages', async () => {
    await createRepoFromFiles(root, 'handbook', { ...SAMPLE_DOCS, 'guides/linux.md': '# On Linux\n\n## Systemd unit\n\nJournald keeps the logs of the unit.\n' });
    const space = (await owner.api.orgs.createSpace(orgId, { title: 'Handbook copy' } as any)).data.id;
    await owner.api.spaces.updateSpaceById(space, { defaultLevel: null } as any); // out of the reader's answers below
    await importInto(q, owner, space, `${git.url}/handbook.git`);
    const { data } = await owner.api.spaces.searchSpaceContent(space, { query: 'journald' });
    expect(data.items.map((i) => i.path)).toEqual(['guides/install/linux']);
    expect((await owner.api.spaces.searchSpaceContent(space, { query: 'crash' })).data.items).toEqual([]);
  });

  it('asks: an answer in markdown that cites its pages and sections', async () => {
    const { data } = await reader.api.orgs.askInOrganization(orgId, { query: 'How do I tune the buffer chunk size?' }, { format: 'markdown' });
    const answer = data.answer!;
    expect((answer.answer as { markdown: string }).markdown).toContain(`${q.config.appUrl}/s/${handbook}/guides/configuration#buffer-settings`);
    expect(answer.sources[0]).toMatchObject({ type: 'page', space: handbook, sections: expect.arrayContaining(['buffer-settings']), revision: expect.any(String) });
    const { data: space } = await reader.api.spaces.getSpaceById(handbook);
    expect(answer.sources[0]).toMatchObject({ revision: space.revision });
    expect(Array.isArray(answer.followupQuestions)).toBe(true);
  });

  it('asks: a document answer by default, and a plain "not found" when nothing is relevant', async () => {
    const { data } = await reader.api.orgs.askInOrganization(orgId, { query: 'Which chunk size for the buffer?', previousQueries: ['How do I install it?'] });
    expect(validateSchema('JSONDocument', (data.answer!.answer as any).document)).toEqual([]);
    const none = await reader.api.orgs.askInOrganization(orgId, { query: 'Where do zeppelins leave from?' }, { format: 'markdown' });
    expect(none.data.answer).toEqual({ answer: { markdown: expect.stringMatching(/couldn't find/) }, followupQuestions: [], sources: [] });
  });

  it('rejects bad ask bodies with 400', async () => {
    const bad = async (body: unknown, query = '') => (await q.http('POST', `/v1/orgs/${orgId}/ask${query}`, { token: reader.token, body })).status;
    expect(await bad({})).toBe(400);
    expect(await bad({ query: '' })).toBe(400);
    expect(await bad({ query: 'x'.repeat(513) })).toBe(400);
    expect(await bad({ query: 'x', previousQueries: Array(11).fill('y') })).toBe(400);
    expect(await bad({ query: 'x' }, '?format=html')).toBe(400);
  });

  it('streams the answer as server-sent events', async () => {
    const events: any[] = [];
    for await (const event of reader.api.orgs.streamAskInOrganization(orgId, { query: 'How do I tune the buffer chunk size?', format: 'markdown' })) events.push(event);
    expect(events).toHaveLength(1);
    expect(validateSchema('SearchAIAnswerStream', events[0])).toEqual([]);
    expect(events[0].answer.sources[0]).toMatchObject({ space: handbook });
  });
});

describe('ask with a model (e2e)', () => {
  let q: TestQuire;
  let model: Server;
  let git: Awaited<ReturnType<typeof startGitHttpServer>>;
  let root: string;
  const prompts: string[] = [];
  let reply = 'Tune `chunk_limit_size` [1].';
  let asker: { orgId: string; space: string; api: GitBookAPI } | undefined;

  beforeAll(async () => {
    model = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        prompts.push(JSON.parse(raw).messages.map((m: any) => m.content).join('\n'));
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ choices: [{ message: { content: reply } }] }));
      });
    });
    await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
    root = mkdtempSync(join(tmpdir(), 'quire-ask-git-'));
    git = await startGitHttpServer({ root });
    await createRepoFromFiles(root, 'handbook', SAMPLE_DOCS);
    q = await startTestQuire({ askModel: { url: `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`, model: 'tiny' } });
  }, 120_000);
  afterAll(async () => {
    await q?.close();
    await git?.close();
    await new Promise((resolve) => model.close(resolve));
    rmSync(root, { recursive: true, force: true });
  });

  it('lets the configured model write the answer from the retrieved sections', async () => {
    const owner = await q.createUser('Model Owner');
    const orgId = (await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Model Org' } })).body.id;
    const api: GitBookAPI = owner.api;
    const space = (await api.orgs.createSpace(orgId, { title: 'Handbook' } as any)).data.id;
    await importInto(q, owner, space, `${git.url}/handbook.git`);
    asker = { orgId, space, api };
    const { data } = await api.orgs.askInOrganization(orgId, { query: 'How do I tune the buffer chunk size?' }, { format: 'markdown' });
    expect((data.answer!.answer as any).markdown).toBe(`Tune \`chunk_limit_size\` [1](${q.config.appUrl}/s/${space}/guides/configuration#buffer-settings).`);
    expect(prompts.pop()).toContain('chunk_limit_size');
    expect(q.violations).toEqual([]);
  });

  it("keeps the model's leading heading and thematic breaks in a document answer, and strips raw HTML and script links", async () => {
    const { orgId, space, api } = asker!;
    reply = '# Buffer tuning\n\nTune `chunk_limit_size` [1].\n\n---\n\nMore <script>alert(1)</script><b>here</b>: [click](javascript:alert(1)) or [docs](https://docs.test/x).';
    const doc = (await api.orgs.askInOrganization(orgId, { query: 'How do I tune the buffer chunk size?' })).data.answer!.answer as any;
    expect(validateSchema('JSONDocument', doc.document)).toEqual([]);
    expect(doc.document.nodes.map((n: any) => n.type)).toEqual(['heading-1', 'paragraph', 'divider', 'paragraph']);
    expect(JSON.stringify(doc.document.nodes[0])).toContain('Buffer tuning');
    expect(JSON.stringify(doc)).not.toMatch(/javascript|alert/);
    const md = ((await api.orgs.askInOrganization(orgId, { query: 'How do I tune the buffer chunk size?' }, { format: 'markdown' })).data.answer!.answer as any).markdown;
    expect(md).toBe(
      `# Buffer tuning\n\nTune \`chunk_limit_size\` [1](${q.config.appUrl}/s/${space}/guides/configuration#buffer-settings).\n\n---\n\nMore here: click or [docs](https://docs.test/x).`,
    );
  });
});
