import { execFileSync } from 'child_process';
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { cloneBundle, createEmptyRepo, createRepoFromFiles, startGitHttpServer } from '../support/git-http-server';
import { settledGitRuns } from '../support/git-runs';
import { startTestQuire, TestQuire } from '../support/quire-app';

const PASSWORD = 'pu5h-Pa55word';
const FIXTURES = process.env.QUIRE_FIXTURES_DIR ?? '/work/shared/fixtures';
const flatten = (pages: any[]): any[] => pages.flatMap((p) => [p, ...flatten(p.pages ?? [])]);

describe('git export (e2e: push over real git HTTP, BullMQ worker)', () => {
  let q: TestQuire;
  let git: Awaited<ReturnType<typeof startGitHttpServer>>;
  let root: string;
  let owner: Awaited<ReturnType<TestQuire['createUser']>>;
  let orgId: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'quire-git-export-'));
    git = await startGitHttpServer({ root, allowAnonymousPush: true, auth: { private: { username: 'bot', password: PASSWORD } }, protectedRefs: ['refs/heads/protected'] });
    q = await startTestQuire();
    owner = await q.createUser('Ada Exporter');
    orgId = (await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Export Org' } })).body.id;
  }, 60_000);
  afterAll(async () => {
    await q?.close();
    await git?.close();
    rmSync(root, { recursive: true, force: true });
  });
  afterEach(() => {
    expect(q.violations).toEqual([]);
  });

  const gitOut = (repo: string, ...args: string[]) => execFileSync('git', ['--git-dir', join(root, `${repo}.git`), ...args], { encoding: 'utf8' }).trim();
  const newSpace = async (title: string) => (await owner.api.orgs.createSpace(orgId, { title } as any)).data;
  const post = (spaceId: string, kind: 'import' | 'export', body: Record<string, unknown>) => q.http('POST', `/v1/spaces/${spaceId}/git/${kind}`, { token: owner.token, body });
  const settled = (spaceId: string, kind: 'imports' | 'exports', count = 1, timeoutMs = 60_000) => settledGitRuns(q, owner.token, spaceId, kind, count, timeoutMs);
  async function editPage(spaceId: string, path: string, markdown: string) {
    const { data: page } = await owner.api.spaces.getPageByPath(spaceId, path);
    const { data: cr } = await owner.api.spaces.createChangeRequest(spaceId, { subject: 'Edit' });
    await owner.api.spaces.updateChangeRequestContent(spaceId, cr.id, { changes: [{ operation: 'update_page', page: page.id, document: { markdown } }] } as any);
    const { data: merged } = await owner.api.spaces.mergeChangeRequest(spaceId, cr.id);
    expect(merged.result).toBe('merge');
  }

  const handbook = {
    'README.md': '# Welcome\n\nHello.\n',
    'SUMMARY.md': '# Table of contents\n\n- [Welcome](README.md)\n\n## Guides\n\n- [Install](guides/install.md)\n  - [On Linux](guides/linux.md)\n',
    'guides/install.md': '# Install\n\nSteps.\n',
    'guides/linux.md': '# Linux\n\nRun it.\n',
    'package.json': '{"private": true}\n',
  };

  it('imports, edits one page in Quire, exports: one commit changing that file only, by its author; then nothing to push, and re-importing brings the same content back', async () => {
    const main = await createRepoFromFiles(root, 'handbook', handbook);
    const space = await newSpace('Handbook');
    const url = `${git.url}/handbook.git`;
    expect((await post(space.id, 'import', { url, ref: 'refs/heads/main' })).status).toBe(204);
    expect((await settled(space.id, 'imports'))[0].status).toBe('completed');

    // (The heading keeps the page's title: Quire's editor takes a page's title from it.)
    await editPage(space.id, 'guides/install/linux', '# On Linux\n\nRun it, edited in Quire.\n');
    const { data: edited } = await owner.api.spaces.getCurrentRevision(space.id);
    await owner.api.spaces.exportToGitRepository(space.id, { url, ref: 'refs/heads/main', commitMessage: 'Edit Linux page', timestamp: new Date().toISOString() } as any);
    const [run] = await settled(space.id, 'exports');
    expect(run).toMatchObject({ status: 'completed', pushed: true, revision: edited.id, commitMessage: 'Edit Linux page' });
    expect(gitOut('handbook', 'rev-parse', 'main')).toBe(run.commit.oid);
    expect(gitOut('handbook', 'rev-parse', 'main^')).toBe(main);
    // Quire's editor laid the pages out afresh (guides/install/linux.md...): the export puts
    // them back where the repository has them, and keeps its SUMMARY.md.
    expect(gitOut('handbook', 'diff-tree', '-r', '--name-status', main, 'main')).toBe('M\tguides/linux.md');
    expect(gitOut('handbook', 'show', 'main:guides/linux.md')).toBe('# On Linux\n\nRun it, edited in Quire.');
    const [author, committer, subject] = gitOut('handbook', 'log', '-1', '--format=%an <%ae>%n%cn%n%s', 'main').split('\n');
    expect(author).toMatch(/^Ada Exporter <ada\.exporter\..*@example\.com>$/);
    expect(committer).toBe('Quire');
    expect(subject).toBe('Edit Linux page');
    const { data: live } = await owner.api.spaces.getSpaceById(space.id);
    expect(live.gitSync).toMatchObject({ installationStatus: 'active', operation: { state: 'success', direction: 'export' } });

    // Nothing new: the export pushes nothing.
    await owner.api.spaces.exportToGitRepository(space.id, { url, ref: 'refs/heads/main', commitMessage: 'Again' } as any);
    const again = await settled(space.id, 'exports', 2);
    expect(again[0]).toMatchObject({ status: 'completed', pushed: false, commit: { oid: run.commit.oid } });
    expect(gitOut('handbook', 'rev-parse', 'main')).toBe(run.commit.oid);

    // Importing what Quire just exported adds no revision: the editor kept the pages' files
    // where the repository has them, and SUMMARY.md as it was.
    expect((await post(space.id, 'import', { url, ref: 'refs/heads/main' })).status).toBe(204);
    const [reimport] = await settled(space.id, 'imports', 2);
    expect(reimport).toMatchObject({ status: 'completed', revision: edited.id, commit: { oid: run.commit.oid } });
    expect((await owner.api.spaces.getCurrentRevision(space.id)).data.id).toBe(edited.id);
    const { data: linux } = await owner.api.spaces.getPageByPath(space.id, 'guides/install/linux', { format: 'markdown' } as any);
    expect((linux as any).markdown).toContain('edited in Quire');
  });

  it('a fixture repository edited through a change request, exported, then imported back: the import adds no revision', async () => {
    await cloneBundle(join(FIXTURES, 'noislabs-gitbook-docs.bundle'), root, 'noislabs');
    const space = await newSpace('Nois');
    const url = `${git.url}/noislabs.git`;
    const imported = gitOut('noislabs', 'rev-parse', 'main');
    await post(space.id, 'import', { url, ref: 'refs/heads/main' });
    expect((await settled(space.id, 'imports'))[0].status).toBe('completed');

    // A nested page, which GitBook's layout would put elsewhere than the repository has it.
    const { data: before } = await owner.api.spaces.getCurrentRevision(space.id);
    const nested = flatten(before.pages as any[]).find((p) => p.type === 'document' && p.path.includes('/'));
    expect(nested).toBeDefined();
    const { data: page } = await owner.api.spaces.getPageById(space.id, nested.id, { format: 'markdown' } as any);
    await editPage(space.id, nested.path, `${(page as any).markdown.trimEnd()}\n\nEdited in Quire.\n`);
    const { data: edited } = await owner.api.spaces.getCurrentRevision(space.id);

    await post(space.id, 'export', { url, ref: 'refs/heads/main', commitMessage: 'Edit one page' });
    const [exported] = await settled(space.id, 'exports');
    expect(exported).toMatchObject({ status: 'completed', pushed: true, revision: edited.id });
    const changed = gitOut('noislabs', 'diff-tree', '-r', '--name-status', imported, 'main').split('\n');
    expect(changed).toHaveLength(1);
    expect(changed[0]).toMatch(/^M\t.+\.md$/);
    expect(gitOut('noislabs', 'show', `main:${changed[0].slice(2)}`)).toContain('Edited in Quire.');

    await post(space.id, 'import', { url, ref: 'refs/heads/main' });
    const [reimport] = await settled(space.id, 'imports', 2);
    expect(reimport).toMatchObject({ status: 'completed', revision: edited.id, commit: { oid: exported.commit.oid } });
    expect((await owner.api.spaces.getCurrentRevision(space.id)).data.id).toBe(edited.id);
  }, 120_000);

  it('refuses with remote_changed when the branch has commits the space has not seen; force pushes on top; an older request is skipped', async () => {
    await createRepoFromFiles(root, 'moving', handbook);
    const space = await newSpace('Moving');
    const url = `${git.url}/moving.git`;
    await post(space.id, 'import', { url, ref: 'refs/heads/main', timestamp: '2026-01-02T00:00:00Z' });
    await settled(space.id, 'imports');
    const theirs = await createRepoFromFiles(root, 'moving', { ...handbook, 'guides/install.md': '# Install\n\nTheir steps.\n' });
    await editPage(space.id, 'guides/install/linux', '# Linux\n\nOurs.\n');

    await post(space.id, 'export', { url, ref: 'refs/heads/main', commitMessage: 'Ours' });
    const [refused] = await settled(space.id, 'exports');
    expect(refused).toMatchObject({ status: 'failed', error: { code: 'remote_changed', message: expect.stringMatching(/Import the repository first/) } });
    expect(gitOut('moving', 'rev-parse', 'main')).toBe(theirs);
    expect((await owner.api.spaces.getSpaceById(space.id)).data.gitSync).toMatchObject({ operation: { state: 'failure', direction: 'export' } });

    await post(space.id, 'export', { url, ref: 'refs/heads/main', commitMessage: 'Ours, forced', force: true });
    const [forced] = (await settled(space.id, 'exports', 2));
    expect(forced).toMatchObject({ status: 'completed', pushed: true });
    expect(gitOut('moving', 'rev-parse', 'main^')).toBe(theirs);

    await post(space.id, 'export', { url, ref: 'refs/heads/main', commitMessage: 'Old', timestamp: '2026-01-01T00:00:00Z' });
    const [skipped] = await settled(space.id, 'exports', 3);
    expect(skipped).toMatchObject({ status: 'skipped', error: { code: 'skipped' } });
  });

  it('pushes with credentials from the URL without recording them; without them auth_failed, to a protected branch push_rejected; a new branch is created', async () => {
    await createEmptyRepo(root, 'private');
    const space = await newSpace('Secret');
    const { data: cr } = await owner.api.spaces.createChangeRequest(space.id, { subject: 'Seed' });
    await owner.api.spaces.updateChangeRequestContent(space.id, cr.id, { changes: [{ operation: 'insert_page', title: 'Secret', document: { markdown: '# Secret docs\n' } }] } as any);
    expect((await owner.api.spaces.mergeChangeRequest(space.id, cr.id)).data.result).toBe('merge');
    const withAuth = `${git.url.replace('http://', `http://bot:${PASSWORD}@`)}/private.git`;
    await post(space.id, 'export', { url: withAuth, ref: 'refs/heads/main', commitMessage: 'First export' });
    const [ok] = await settled(space.id, 'exports');
    expect(ok).toMatchObject({ status: 'completed', pushed: true });
    expect(ok.url).not.toContain(PASSWORD);
    expect(gitOut('private', 'show', 'main:README.md')).toContain('Secret');

    await post(space.id, 'export', { url: `${git.url}/private.git`, ref: 'refs/heads/main', commitMessage: 'No auth' });
    const [refused] = await settled(space.id, 'exports', 2);
    expect(refused).toMatchObject({ status: 'failed', error: { code: 'auth_failed' } });

    await post(space.id, 'export', { url: withAuth, ref: 'refs/heads/protected', commitMessage: 'Protected' });
    const [rejected] = await settled(space.id, 'exports', 3);
    expect(rejected).toMatchObject({ status: 'failed', error: { code: 'push_rejected' } });

    await post(space.id, 'export', { url: withAuth, ref: 'refs/heads/docs', commitMessage: 'Branch', standalone: true });
    const [branch] = await settled(space.id, 'exports', 4);
    expect(branch).toMatchObject({ status: 'completed', pushed: true, standalone: true });
    expect(gitOut('private', 'rev-parse', 'docs')).toBe(branch.commit.oid);

    const leaked = await q.started.runtime.db.query(`SELECT count(*)::int AS n FROM quire_events WHERE data::text LIKE $1 OR metadata::text LIKE $1`, [`%${PASSWORD}%`]);
    expect(leaked.rows[0].n).toBe(0);
    const inReadModels = await q.started.runtime.db.query(`SELECT count(*)::int AS n FROM rm_git_exports WHERE url LIKE $1 OR error::text LIKE $1`, [`%${PASSWORD}%`]);
    expect(inReadModels.rows[0].n).toBe(0);
    expect(await q.started.runtime.redis!.keys(`${q.started.runtime.config.queuePrefix}:secret:*`)).toEqual([]);
  });

  it('rejects bad input with 400 naming the field', async () => {
    const space = await newSpace('Validation');
    const noMessage = await post(space.id, 'export', { url: `${git.url}/x.git`, ref: 'refs/heads/main' });
    expect(noMessage.status).toBe(400);
    expect(noMessage.body.error.message).toMatch(/commitMessage/);
    const tag = await post(space.id, 'export', { url: `${git.url}/x.git`, ref: 'refs/tags/v1', commitMessage: 'x' });
    expect(tag.status).toBe(400);
    expect(tag.body.error.message).toMatch(/ref/);
  });
});
