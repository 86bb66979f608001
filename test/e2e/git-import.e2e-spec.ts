import { execFileSync } from 'child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'fs';
import { createServer, request as httpRequest, type Server } from 'http';
import type { AddressInfo } from 'net';
import { tmpdir } from 'os';
import { join } from 'path';
import { GitImportProcessor } from '../../apps/worker/src/git-import/git-import.processor';
import { until } from '../chaos/chaos-support';
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
    // An unreachable host is a transient failure, retried 4 times: after 50 ms doubling (0.75 s
    // in all) rather than 1 s doubling (15 s waited out per such case).
    q = await startTestQuire({ jobRetryDelayMs: 50 });
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
    const keys = await q.started.runtime.redis!.keys(`${q.started.runtime.config.queuePrefix}:secret:*`);
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
    expect((await importInto(space.id, { url: `${git.url}/skipped.git`, ref: 'refs/heads/main', timestamp: '2026-01-01T00:00:00Z' })).status).toBe(204);
    const runs = await settled(space.id, 3);
    expect(runs[0]).toMatchObject({ status: 'skipped' });
    // The space shows the last import that ran, not the skipped one.
    const { data: live } = await owner.api.spaces.getSpaceById(space.id);
    expect(live.gitSync).toMatchObject({ repoName: 'handbook', operation: { state: 'success', direction: 'import' } });
  });

  it('imports a named branch from a repository whose HEAD is dangling', async () => {
    await createRepoFromFiles(root, 'dangling', { 'README.md': '# Dangling\n', 'SUMMARY.md': '* [Dangling](README.md)\n' });
    execFileSync('git', ['--git-dir', join(root, 'dangling.git'), 'symbolic-ref', 'HEAD', 'refs/heads/master']);
    const space = await newSpace('Dangling');
    expect((await importInto(space.id, { url: `${git.url}/dangling.git`, ref: 'refs/heads/main' })).status).toBe(204);
    const [run] = await settled(space.id);
    expect(run).toMatchObject({ status: 'completed' });
    const { data: revision } = await owner.api.spaces.getCurrentRevision(space.id);
    expect(revision.pages.map((p: any) => p.title)).toEqual(['Dangling']);
  });

  it('records a failure after the fetch at once, with its reason, and drops the credentials', async () => {
    const space = await newSpace('Unwritable');
    // The space's content repository cannot take new objects: writing the revision fails.
    const gitdir = join(q.config.dataDir, 'spaces', `${space.id}.git`);
    mkdirSync(join(gitdir, 'objects'), { recursive: true });
    renameSync(join(gitdir, 'objects'), join(gitdir, 'objects.moved'));
    writeFileSync(join(gitdir, 'objects'), 'not a directory');
    const url = `${git.url.replace('http://', `http://bot:${PASSWORD}@`)}/private.git`;
    expect((await importInto(space.id, { url, ref: 'refs/heads/main' })).status).toBe(204);
    // Five attempts with backoff would take over 15 s: a permanent error is recorded on the first.
    const [run] = await settled(space.id, 1, 10_000);
    expect(run).toMatchObject({ status: 'failed', error: { code: 'internal' } });
    expect(run.error.message).toMatch(/^Writing the imported content to the space failed: .*ENOTDIR/);
    const { data: live } = await owner.api.spaces.getSpaceById(space.id);
    expect(live.gitSync).toMatchObject({ operation: { state: 'failure' } });
    expect(await q.started.runtime.redis!.keys(`${q.started.runtime.config.queuePrefix}:secret:*`)).toEqual([]);
  });

  it('strips token query parameters and URL credentials from everything it records', async () => {
    const tokens = ['Tok3n-private', 'Tok3n-access', 'Tok3n-plain', 'Tok3n-gitinfo'];
    const space = await newSpace('Tokens');
    const r = await importInto(space.id, {
      url: `${git.url}/handbook.git?private_token=${tokens[0]}`,
      ref: 'refs/heads/main',
      repoTreeURL: `https://bot:${PASSWORD}@example.com/tree/main?access_token=${tokens[1]}&tab=docs`,
      repoCommitURL: `https://example.com/commit?token=${tokens[2]}`,
      gitInfo: { provider: 'gitlab', url: `https://bot:${PASSWORD}@gitlab.example.com/docs?private_token=${tokens[3]}` },
    });
    expect(r.status).toBe(204);
    const [run] = await settled(space.id);
    expect(run.status).toBe('completed');
    const { data: live } = await owner.api.spaces.getSpaceById(space.id);
    expect(live.gitSync).toMatchObject({ url: 'https://example.com/tree/main?tab=docs', repoName: 'handbook' });
    const { data: revision } = await owner.api.spaces.getCurrentRevision(space.id);
    expect((revision as any).git.url).toBe(`https://example.com/commit/${run.commit.oid}`);
    for (const secret of [...tokens, PASSWORD]) {
      const inEvents = await q.started.runtime.db.query(`SELECT count(*)::int AS n FROM quire_events WHERE data::text LIKE $1 OR metadata::text LIKE $1`, [`%${secret}%`]);
      expect([secret, inEvents.rows[0].n]).toEqual([secret, 0]);
      const inSpaces = await q.started.runtime.db.query(`SELECT count(*)::int AS n FROM rm_spaces WHERE git_sync::text LIKE $1 OR git_sync_pending::text LIKE $1`, [`%${secret}%`]);
      expect([secret, inSpaces.rows[0].n]).toEqual([secret, 0]);
    }
    expect(await q.started.runtime.redis!.keys(`${q.started.runtime.config.queuePrefix}:secret:*`)).toEqual([]);
  });

  it('stores at most 100 warnings, the last one counting the rest', async () => {
    const missing = Array.from({ length: 150 }, (_, i) => `* [Missing ${i}](missing-${i}.md)`).join('\n');
    await createRepoFromFiles(root, 'noisy', { 'README.md': '# Noisy\n', 'SUMMARY.md': `* [Noisy](README.md)\n${missing}\n` });
    const space = await newSpace('Noisy');
    expect((await importInto(space.id, { url: `${git.url}/noisy.git`, ref: 'refs/heads/main' })).status).toBe(204);
    const [run] = await settled(space.id);
    expect(run.status).toBe('completed');
    expect(run.warnings).toHaveLength(101);
    expect(run.warnings[100]).toMatch(/^\.\.\. and \d+ more warnings$/);
  });

  it("reports warnings about the user's repository only, each once, with its own line numbers", async () => {
    // With a SUMMARY.md: lists of different markers (separate lists to markdown), a plain-text entry.
    await createRepoFromFiles(root, 'warned', {
      'README.md': '# Warned\n',
      'SUMMARY.md': '# Summary\n\n* [Warned](README.md)\n1. [One](one.md)\n- [Two](two.md)\n* Plain text item\n* [Gone](gone.md)\n',
      'one.md': '# One\n',
      'two.md': '# Two\n',
    });
    const warned = await newSpace('Warned');
    expect((await importInto(warned.id, { url: `${git.url}/warned.git`, ref: 'refs/heads/main' })).status).toBe(204);
    const [withSummary] = await settled(warned.id);
    expect(withSummary.status).toBe('completed');
    expect(withSummary.warnings).toEqual([
      'SUMMARY.md line 6: "Plain text item" has no link; imported as an empty page',
      'SUMMARY.md links to missing file gone.md (line 7)',
    ]);
    // Without one: the folder tree is the table of contents, and a folder without a README is
    // an empty page by design, not a SUMMARY.md entry to warn about.
    await createRepoFromFiles(root, 'folders', { 'README.md': '# Folders\n', 'guides/linux/install.md': '# Install\n' });
    const folders = await newSpace('Folders');
    expect((await importInto(folders.id, { url: `${git.url}/folders.git`, ref: 'refs/heads/main' })).status).toBe(204);
    const [withoutSummary] = await settled(folders.id);
    expect(withoutSummary.status).toBe('completed');
    expect(withoutSummary.warnings).toEqual([]);
    const { data: revision } = await owner.api.spaces.getCurrentRevision(folders.id);
    expect(allPages(revision.pages).map((p: any) => p.path)).toEqual(['folders', 'guides', 'guides/linux', 'guides/linux/install']);
  });

  it('keeps the space lock alive while a slow import runs', async () => {
    // A proxy that holds each answer of the git server for a while.
    const slow: Server = createServer((req, res) => {
      const target = new URL(req.url ?? '/', git.url);
      const upstream = httpRequest(target, { method: req.method, headers: req.headers }, (answer) => {
        setTimeout(() => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        }, 1_500);
      });
      req.pipe(upstream);
    });
    await new Promise<void>((ready) => slow.listen(0, '127.0.0.1', ready));
    const processor = q.started.app.get(GitImportProcessor);
    const ttl = processor.lockTtlMs;
    processor.lockTtlMs = 600;
    try {
      const space = await newSpace('Slow');
      const lockKey = `${q.started.runtime.config.queuePrefix}:lock:git-import:${space.id}`;
      const { port } = slow.address() as AddressInfo;
      expect((await importInto(space.id, { url: `http://127.0.0.1:${port}/handbook.git`, ref: 'refs/heads/main' })).status).toBe(204);
      const redis = q.started.runtime.redis!;
      const deadline = Date.now() + 10_000;
      while (!(await redis.exists(lockKey)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      // Two answers of 1.5 s each: the lock outlives its 600 ms lifetime several times over.
      await new Promise((r) => setTimeout(r, 2_000));
      expect(await redis.exists(lockKey)).toBe(1);
      const [run] = await settled(space.id);
      expect(run.status).toBe('completed');
      // The worker releases the lock just after it appends the completion, and the read model may
      // show that completion first. So the lock must be gone within half its 600 ms lifetime: a
      // lock still renewed, or left to expire by itself, is still there then.
      await until('the git import lock to be released', async () => (await redis.exists(lockKey)) === 0, 300, 20);
    } finally {
      processor.lockTtlMs = ttl;
      await new Promise((closed) => slow.close(closed));
    }
  });

  it.each([
    ['noislabs-gitbook-docs.bundle', 'main', '', 22],
    ['fluent-fluentd-docs-gitbook.bundle', '1.0', '', 191],
    ['pgsql-tw-gitbook-docs.bundle', 'master', 'tw/', 824],
  ])('imports the real repository %s with every SUMMARY page (title and path) and every referenced asset', async (bundle, branch, docsRoot, summaryCount) => {
    const name = bundle.replace('.bundle', '');
    // Served as `git clone --bare` leaves it; the branch is named explicitly.
    await cloneBundle(join(FIXTURES, bundle), root, name);
    const checkout = join(root, `${name}-checkout`);
    execFileSync('git', ['clone', '-q', '--branch', branch, join(FIXTURES, bundle), checkout]);
    const exists = (path: string) => existsSync(join(checkout, path)) && statSync(join(checkout, path)).isFile();

    const space = await newSpace(name.slice(0, 40));
    const initial = (await owner.api.spaces.getCurrentRevision(space.id)).data.id;
    expect((await importInto(space.id, { url: `${git.url}/${name}.git`, ref: `refs/heads/${branch}` })).status).toBe(204);
    const [run] = await settled(space.id, 1, 150_000);
    expect(run.status).toBe('completed');
    // A large revision may take a moment to reach the content read model (the API says 503,
    // or still shows the space's first revision): wait for the imported one.
    let revision: any;
    for (const deadline = Date.now() + 60_000; !revision; ) {
      const r = await q.http('GET', `/v1/spaces/${space.id}/content`, { token: owner.token });
      if (r.status === 200 && r.body.id !== initial) revision = r.body;
      else if ((r.status !== 503 && r.status !== 200) || Date.now() > deadline) throw new Error(`GET content: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
      else await new Promise((res) => setTimeout(res, 250));
    }
    const pages = allPages(revision.pages);

    // The table of contents, read from SUMMARY.md by a script of its own.
    const entries = realSummaryEntries(readFileSync(join(checkout, docsRoot, 'SUMMARY.md'), 'utf8'));
    const flatEntries = (list: RealSummaryEntry[]): RealSummaryEntry[] => list.flatMap((e) => [e, ...flatEntries(e.children)]);
    expect(flatEntries(entries).filter((e) => e.target !== undefined).length).toBe(summaryCount);
    const byFile = new Map(pages.filter((p) => p.git?.path).map((p) => [p.git.path, p]));
    const groupPath = (title: string): string => (revision.pages as any[]).find((p) => p.type === 'group' && p.title === title)?.path ?? `(no group ${title})`;
    const seen = new Set<string>();
    const expected: Array<{ file: string; title: string; path?: string }> = [];
    const taken = new Map<string, Set<string>>();
    const claim = (parentPath: string, base: string) => {
      const siblings = taken.get(parentPath) ?? new Set<string>();
      taken.set(parentPath, siblings);
      let slug = base;
      for (let n = 1; siblings.has(slug); n++) slug = `${base}-${n}`;
      siblings.add(slug);
      return parentPath ? `${parentPath}/${slug}` : slug;
    };
    const place = (entry: RealSummaryEntry, parentPath: string | undefined) => {
      let path = parentPath;
      const file = entry.target;
      // A bullet without a link is an empty page named by its text.
      if (!entry.link && parentPath !== undefined) path = claim(parentPath, entry.title.toLowerCase().replace(/[^\p{L}\p{N}._]+/gu, '-').replace(/^-+|-+$/g, ''));
      if (file !== undefined && exists(docsRoot + file) && !seen.has(file)) {
        seen.add(file);
        const isReadme = /(^|\/)readme\.md$/i.test(file);
        const segments = file.split('/');
        const base = (isReadme ? segments[segments.length - 2] ?? '' : segments[segments.length - 1]).replace(/\.md$/i, '').toLowerCase().replace(/\s+/g, '-');
        if (file.toLowerCase() === 'readme.md') path = undefined;
        else if (parentPath !== undefined) path = claim(parentPath, base);
        expected.push({ file, title: entry.title, path });
      }
      for (const child of entry.children) place(child, path);
    };
    for (const entry of entries) place(entry, entry.group === undefined ? '' : groupPath(entry.group));

    const actual = expected.map(({ file }) => {
      const page = byFile.get(file);
      return page ? { file, title: page.title, path: page.path } : { file, title: '(no page)', path: '(no page)' };
    });
    expect(actual).toEqual(expected.map((e) => (e.path === undefined ? { ...e, path: actual.find((a) => a.file === e.file)?.path } : e)));
    expect(expected.length).toBeGreaterThan(summaryCount * 0.95);

    // Every local file the imported pages reference is among the revision's files.
    const fileNames = new Set(revision.files.map((f: any) => f.git?.path));
    const referenced = new Set<string>();
    for (const file of byFile.keys()) {
      for (const url of realAssetUrls(readFileSync(join(checkout, docsRoot, file), 'utf8'))) {
        const resolved = resolveUrl(file, url);
        if (resolved !== undefined && exists(docsRoot + resolved)) referenced.add(resolved);
      }
    }
    expect([...referenced].filter((path) => !fileNames.has(path)).sort()).toEqual([]);
    if (name !== 'pgsql-tw-gitbook-docs') expect(referenced.size).toBeGreaterThan(0);
    for (const file of revision.files) if (/\.(png|jpe?g|gif)$/i.test(file.name)) expect([file.name, file.dimensions !== undefined]).toEqual([file.name, true]);
    expect(run.warnings.filter((w: string) => /asset|image|file .* not found/i.test(w) && !/redirect/i.test(w))).toEqual([]);
  }, 240_000);
});

interface RealSummaryEntry {
  title: string;
  /** Local `.md` target relative to SUMMARY.md, escapes undone; undefined for other bullets. */
  target?: string;
  /** The bullet holds a link (local or not). */
  link: boolean;
  group?: string;
  children: RealSummaryEntry[];
}

/** A deliberately simple SUMMARY.md reader, independent of the importer's: `## ` groups, a
 * rule ends a group, bullets nested by indentation, `[Title](target)`. */
function realSummaryEntries(summary: string): RealSummaryEntry[] {
  const top: RealSummaryEntry[] = [];
  let group: string | undefined;
  let stack: Array<{ indent: number; entry: RealSummaryEntry }> = [];
  const unescape = (text: string) => text.replace(/\\([!-/:-@[-`{-~])/g, '$1');
  const entities = (text: string) => text.replace(/&#x26;|&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>');
  for (const line of summary.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    if (/^##\s/.test(line)) {
      group = entities(unescape(line.replace(/^##\s+/, '').trim()));
      stack = [];
      continue;
    }
    if (/^\s*(\*\s*\*\s*\*|-\s*-\s*-)[\s*-]*$/.test(line)) {
      group = undefined;
      stack = [];
      continue;
    }
    const bullet = /^(\s*)[*+-]\s+(.*)$/.exec(line);
    if (!bullet) continue;
    const indent = bullet[1].replace(/\t/g, '    ').length;
    const content = bullet[2].trim();
    const close = content.lastIndexOf('](');
    let entry: RealSummaryEntry;
    if (content.startsWith('[') && close > 0 && content.endsWith(')')) {
      let target = content.slice(close + 2, -1).trim().replace(/\s+"[^"]*"$/, '');
      if (target.startsWith('<') && target.endsWith('>')) target = target.slice(1, -1);
      target = decodeURIComponent(unescape(target)).replace(/#.*$/, '');
      const local = !/^[a-z][a-z0-9+.-]*:/i.test(target) && /\.md$/i.test(target);
      entry = { title: entities(unescape(content.slice(1, close))).replace(/\s+/g, ' ').trim(), target: local ? target : undefined, link: true, group, children: [] };
    } else entry = { title: content, link: false, group, children: [] };
    while (stack.length > 0 && stack[stack.length - 1].indent >= indent) stack.pop();
    const parent = stack[stack.length - 1];
    if (parent) parent.entry.children.push(entry);
    else top.push(entry);
    stack.push({ indent, entry });
  }
  return top;
}

/** Image, `<img>`, `{% file %}`, cover and `.gitbook/assets` link URLs of a page, outside code fences. */
function realAssetUrls(markdown: string): string[] {
  const text = markdown.replace(/^(```|~~~)[\s\S]*?^\1/gm, '');
  const urls: string[] = [];
  for (const m of text.matchAll(/!\[[^\]]*\]\(/g)) {
    let rest = text.slice(m.index! + m[0].length);
    if (rest.startsWith('<')) {
      urls.push(rest.slice(1, rest.indexOf('>')));
      continue;
    }
    let depth = 0;
    let i = 0;
    for (; i < rest.length; i++) {
      if (rest[i] === '(') depth++;
      else if (rest[i] === ')' && depth-- === 0) break;
      else if (rest[i] === '\n') break;
    }
    rest = rest.slice(0, i).replace(/\s+"[^"]*"\s*$/, '').trim();
    urls.push(rest);
  }
  for (const m of text.matchAll(/<img\s[^>]*?src\s*=\s*"([^"]+)"/gi)) urls.push(m[1]);
  for (const m of text.matchAll(/\{%\s*file\s+src="([^"]+)"/g)) urls.push(m[1]);
  for (const m of text.matchAll(/\]\(([^)\s]*\.gitbook\/assets\/[^)\s]*)\)/g)) urls.push(m[1]);
  const cover = /^---\n[\s\S]*?^cover:\s*(\S.*)$/m.exec(markdown);
  if (cover && markdown.startsWith('---')) urls.push(cover[1].trim().replace(/^['"]|['"]$/g, ''));
  return urls.filter((url) => url && !/^([a-z][a-z0-9+.-]*:|\/\/|#)/i.test(url));
}

function resolveUrl(pageFile: string, url: string): string | undefined {
  let path = url.replace(/\\([!-/:-@[-`{-~])/g, '$1').replace(/[?#].*$/, '');
  try {
    path = decodeURIComponent(path);
  } catch {
    /* a literal % */
  }
  const parts = path.startsWith('/') ? [] : pageFile.split('/').slice(0, -1);
  for (const segment of path.split('/')) {
    if (segment === '..') {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else if (segment && segment !== '.') parts.push(segment);
  }
  return parts.join('/');
}

