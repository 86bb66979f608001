import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { cloneBundle, createRepoFromFiles, startGitHttpServer } from '../support/git-http-server';
import { startTestQuire, TestQuire } from '../support/quire-app';

const FIXTURES = join(__dirname, '../../../shared/fixtures');
const PNG_1x1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const PASSWORD = 's3cret-Pa55word';

describe('git import (e2e: real git over HTTP, BullMQ worker)', () => {
  let q: TestQuire;
  let git: Awaited<ReturnType<typeof startGitHttpServer>>;
  let root: string;
  let owner: Awaited<ReturnType<TestQuire['createUser']>>;
  let orgId: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'quire-git-'));
    git = await startGitHttpServer({ root, auth: { private: { username: 'bot', password: PASSWORD } } });
    q = await startTestQuire();
    owner = await q.createUser('Importer');
    orgId = (await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Import Org' } })).body.id;
  }, 60_000);
  afterAll(async () => {
    await q?.close();
    await git?.close();
    rmSync(root, { recursive: true, force: true });
  });
  afterEach(() => {
    expect(q.violations).toEqual([]);
  });

  const newSpace = async (title: string) => (await owner.api.orgs.createSpace(orgId, { title } as any)).data;
  const importInto = (spaceId: string, body: Record<string, unknown>) => q.http('POST', `/v1/spaces/${spaceId}/git/import`, { token: owner.token, body });
  async function settled(spaceId: string, count = 1, timeoutMs = 60_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const r = await q.http('GET', `/v1/spaces/${spaceId}/git/imports`, { token: owner.token });
      const done = r.body.items.filter((i: any) => !['queued', 'running'].includes(i.status));
      if (done.length >= count) return r.body.items;
      if (Date.now() > deadline) throw new Error(`imports not settled: ${JSON.stringify(r.body.items)}`);
      await new Promise((res) => setTimeout(res, 100));
    }
  }
  const allPages = (pages: any[]): any[] => pages.flatMap((p) => [p, ...allPages(p.pages ?? [])]);

  it('imports a repository with nested pages, groups, front matter and assets; pages keep their ids on re-import', async () => {
    await createRepoFromFiles(root, 'handbook', {
      'README.md': '# Welcome\n\nHello.\n',
      'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n\n## Guides\n\n* [Install](guides/install.md)\n  * [On Linux](guides/linux.md)\n* [Missing](guides/missing.md)\n* [Site](https://example.com)\n',
      'guides/install.md': '---\ndescription: Install it\n---\n# Install\n\n![shot](../.gitbook/assets/shot.png)\n\n{% hint style="info" %}\nNote\n{% endhint %}\n',
      'guides/linux.md': '# Linux\n\nRun it.\n',
      '.gitbook/assets/shot.png': PNG_1x1,
    });
    const space = await newSpace('Handbook');
    const r = await importInto(space.id, { url: `${git.url}/handbook.git`, ref: 'refs/heads/main', repoCommitURL: 'https://example.com/commit' });
    expect(r.status).toBe(204);
    const [run] = await settled(space.id);
    expect(run).toMatchObject({ status: 'completed', ref: 'refs/heads/main' });
    expect(run.warnings.join(' ')).toMatch(/missing\.md/);

    const { data: revision } = await owner.api.spaces.getCurrentRevision(space.id);
    expect(revision.id).toBe(run.revision);
    expect((revision as any).git).toMatchObject({ oid: run.commit.oid, ref: 'refs/heads/main', url: `https://example.com/commit/${run.commit.oid}` });
    const pages = allPages(revision.pages);
    expect(pages.map((p) => [p.type, p.title])).toEqual([
      ['document', 'Welcome'],
      ['group', 'Guides'],
      ['document', 'Install'],
      ['document', 'On Linux'],
      ['link', 'Site'],
    ]);
    expect(pages[2]).toMatchObject({ path: 'guides/install', description: 'Install it' });
    expect(revision.files).toEqual([expect.objectContaining({ name: 'shot.png', contentType: 'image/png', dimensions: { width: 1, height: 1 } })]);
    const { data: install } = await owner.api.spaces.getPageByPath(space.id, 'guides/install', { format: 'markdown' } as any);
    expect((install as any).markdown).toContain('{% hint style="info" %}');
    const { data: live } = await owner.api.spaces.getSpaceById(space.id);
    expect(live.gitSync).toMatchObject({ installationStatus: 'active', operation: { state: 'success', direction: 'import' } });

    // A one-page change: same ids, new content.
    await createRepoFromFiles(root, 'handbook', {
      'README.md': '# Welcome\n\nHello.\n',
      'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n\n## Guides\n\n* [Install](guides/install.md)\n  * [On Linux](guides/linux.md)\n',
      'guides/install.md': '---\ndescription: Install it\n---\n# Install\n\n![shot](../.gitbook/assets/shot.png)\n',
      'guides/linux.md': '# Linux\n\nRun it, now faster.\n',
      '.gitbook/assets/shot.png': PNG_1x1,
    });
    // (How fast this goes is measured by `npm run bench -- git-import`, not asserted here.)
    expect((await importInto(space.id, { url: `${git.url}/handbook.git`, ref: 'refs/heads/main' })).status).toBe(204);
    const runs = await settled(space.id, 2);
    expect(runs[0].status).toBe('completed');
    const { data: again } = await owner.api.spaces.getCurrentRevision(space.id);
    const byPath = (ps: any[]) => Object.fromEntries(allPages(ps).filter((p) => p.path).map((p) => [p.path, p.id]));
    expect(byPath(again.pages)).toMatchObject(byPath(revision.pages));
    expect(again.parents).toEqual([revision.id]);
    const { data: linux } = await owner.api.spaces.getPageByPath(space.id, 'guides/install/linux', { format: 'markdown' } as any);
    expect((linux as any).markdown).toContain('now faster');

    // The same commit again: the import completes and the space keeps its revision.
    expect((await importInto(space.id, { url: `${git.url}/handbook.git`, ref: 'refs/heads/main' })).status).toBe(204);
    const unchanged = await settled(space.id, 3);
    expect(unchanged[0]).toMatchObject({ status: 'completed', revision: again.id });
    expect((await owner.api.spaces.getCurrentRevision(space.id)).data.id).toBe(again.id);
  });

  it('uses credentials from the URL without ever recording them, and reports refused auth', async () => {
    await createRepoFromFiles(root, 'private', { 'README.md': '# Private\n', 'SUMMARY.md': '* [Private](README.md)\n' });
    const space = await newSpace('Private');
    const url = `${git.url.replace('http://', `http://bot:${PASSWORD}@`)}/private.git`;
    expect((await importInto(space.id, { url, ref: 'refs/heads/main' })).status).toBe(204);
    const [ok] = await settled(space.id);
    expect(ok.status).toBe('completed');
    expect(ok.url).not.toContain(PASSWORD);

    const other = await newSpace('Refused');
    expect((await importInto(other.id, { url: `${git.url}/private.git`, ref: 'refs/heads/main' })).status).toBe(204);
    const [refused] = await settled(other.id);
    expect(refused).toMatchObject({ status: 'failed', error: { code: 'auth_failed' } });

    const leaked = await q.started.runtime.db.query(`SELECT count(*)::int AS n FROM quire_events WHERE data::text LIKE $1 OR metadata::text LIKE $1`, [`%${PASSWORD}%`]);
    expect(leaked.rows[0].n).toBe(0);
    const inReadModels = await q.started.runtime.db.query(`SELECT count(*)::int AS n FROM rm_git_imports WHERE url LIKE $1 OR error::text LIKE $1`, [`%${PASSWORD}%`]);
    expect(inReadModels.rows[0].n).toBe(0);
    const keys = await q.started.runtime.redis!.keys(`${q.config.queuePrefix}:secret:*`);
    expect(keys).toEqual([]);
  });

  it('rejects bad input with 400 naming the field, and needs the edit role', async () => {
    const space = await newSpace('Validation');
    const noUrl = await importInto(space.id, { ref: 'refs/heads/main' });
    expect(noUrl.status).toBe(400);
    expect(noUrl.body.error.message).toMatch(/url/);
    const ftp = await importInto(space.id, { url: 'ftp://example.com/x.git', ref: 'refs/heads/main' });
    expect(ftp.body.error.message).toMatch(/url/);
    const badRef = await importInto(space.id, { url: `${git.url}/handbook.git`, ref: 'main' });
    expect(badRef.status).toBe(400);
    expect(badRef.body.error.message).toMatch(/ref/);
    const reader = await q.createUser('Reader');
    await q.http('PATCH', `/v1/orgs/${orgId}/members/${reader.id}`, { token: owner.token, body: { role: 'read' } });
    const forbidden = await q.http('POST', `/v1/spaces/${space.id}/git/import`, { token: reader.token, body: { url: `${git.url}/handbook.git`, ref: 'refs/heads/main' } });
    expect(forbidden.status).toBe(403);
  });

  it('records actionable failures: unknown branch, unreachable host, no README', async () => {
    await createRepoFromFiles(root, 'noreadme', { 'docs/page.md': '# Page\n' });
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['Branch', { url: `${git.url}/handbook.git`, ref: 'refs/heads/nope' }, 'ref_not_found'],
      ['Host', { url: 'http://127.0.0.1:9/x.git', ref: 'refs/heads/main' }, 'unreachable_host'],
      ['Readme', { url: `${git.url}/noreadme.git`, ref: 'refs/heads/main' }, 'no_readme'],
    ];
    for (const [title, body, code] of cases) {
      const space = await newSpace(title);
      expect((await importInto(space.id, body)).status).toBe(204);
      const [run] = await settled(space.id);
      expect(run).toMatchObject({ status: 'failed', error: { code } });
      const { data: unchanged } = await owner.api.spaces.getCurrentRevision(space.id);
      expect(unchanged.pages.map((p: any) => p.title)).toEqual([title]);
    }
  });

  it('standalone imports create a revision without touching the space; older imports are skipped', async () => {
    const space = await newSpace('Standalone');
    const { data: before } = await owner.api.spaces.getCurrentRevision(space.id);
    expect((await importInto(space.id, { url: `${git.url}/handbook.git`, ref: 'refs/heads/main', standalone: true })).status).toBe(204);
    const [run] = await settled(space.id);
    expect(run).toMatchObject({ status: 'completed', standalone: true });
    const { data: after } = await owner.api.spaces.getCurrentRevision(space.id);
    expect(after.id).toBe(before.id);

    expect((await importInto(space.id, { url: `${git.url}/handbook.git`, ref: 'refs/heads/main', timestamp: '2026-01-02T00:00:00Z' })).status).toBe(204);
    await settled(space.id, 2);
    expect((await importInto(space.id, { url: `${git.url}/handbook.git`, ref: 'refs/heads/main', timestamp: '2026-01-01T00:00:00Z' })).status).toBe(204);
    const runs = await settled(space.id, 3);
    expect(runs[0]).toMatchObject({ status: 'skipped' });
  });

  it.each([
    ['noislabs-gitbook-docs.bundle', 'main', 22, undefined],
    ['fluent-fluentd-docs-gitbook.bundle', '1.0', 191, undefined],
    ['pgsql-tw-gitbook-docs.bundle', 'master', 824, undefined],
  ])('imports the real repository %s with every SUMMARY page and asset', async (bundle, branch, summaryPages, projectDirectory) => {
    const name = bundle.replace('.bundle', '');
    await cloneBundle(join(FIXTURES, bundle), root, name);
    const space = await newSpace(name.slice(0, 40));
    expect((await importInto(space.id, { url: `${git.url}/${name}.git`, ref: `refs/heads/${branch}`, ...(projectDirectory ? { repoProjectDirectory: projectDirectory } : {}) })).status).toBe(204);
    const [run] = await settled(space.id, 1, 120_000);
    expect(run.status).toBe('completed');
    const { data: revision } = await owner.api.spaces.getCurrentRevision(space.id);
    const documents = allPages(revision.pages).filter((p) => p.type === 'document');
    // Every SUMMARY entry, plus the README when SUMMARY does not list it.
    expect(documents.length).toBeGreaterThanOrEqual(summaryPages);
    expect(run.warnings.filter((w: string) => /asset|image|file .* not found/i.test(w) && !/redirect/i.test(w))).toEqual([]);
  }, 180_000);
});
