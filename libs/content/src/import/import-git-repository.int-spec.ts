/**
 * Imports from a real smart-HTTP git server (git http-backend) on 127.0.0.1.
 */
import { execFile } from 'child_process';
import { promises as fs } from 'fs';
import { createServer as createHttpServer, type Server } from 'http';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'net';
import { tmpdir } from 'os';
import { join } from 'path';
import { promisify } from 'util';
import lockfile from 'proper-lockfile';
import type { ImportedPage } from '@quire/content/gitsync';
import { createRepoFromFiles, startGitHttpServer, type GitHttpServer } from '@quire/test-support/git-http-server';
import { cacheRepositoryPath, importGitRepository, type ImportGitRepositoryOptions } from './import-git-repository';
import { GitImportError } from './import.errors';
import { pngBytes } from './testing/png';


const execFileAsync = promisify(execFile);
/** The local git server is a private address: allowed as an operator allows an intranet host. */
const LOCAL_HOSTS = ['127.0.0.1'];
const alice = { username: 'alice', password: 'pa55:word@with/odd?chars' };

let scratch: string;
let root: string;
let cacheDir: string;
let server: GitHttpServer;
let docsCommit: string;

const logo = pngBytes(16, 8, 1);
const diagram = pngBytes(40, 30, 2);
const screenshot = pngBytes(3, 5, 3);
const banner = pngBytes(120, 20, 4);

/** A monorepo: docs under packages/site/content, `.gitbook.yaml` in packages/site. */
const docsRepo: Record<string, string | Uint8Array> = {
  'package.json': '{"name":"monorepo"}\n',
  'src/index.ts': 'export {};\n',
  'README.md': '# The monorepo README, not the docs\n',
  'packages/site/.gitbook.yaml': 'root: ./content/\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\n',
  'packages/site/content/README.md': '---\ndescription: Start here.\n---\n\n# Welcome\n\n![Logo](.gitbook/assets/logo.png)\n',
  'packages/site/content/SUMMARY.md': [
    '# Table of contents',
    '',
    '* [Welcome](README.md)',
    '',
    '## Getting started',
    '',
    '* [Installation](getting-started/installation.md)',
    '  * [On Linux](getting-started/installation/linux.md)',
    '* [Quick start](getting-started/quick-start.md "Quick")',
    '',
    '## Reference',
    '',
    '* [Café & Crème](reference/café-crème.md)',
    '* [簡介](reference/簡介.md)',
    '* [Gone](reference/gone.md)',
    '* [API](reference/api/README.md)',
    '',
  ].join('\n'),
  'packages/site/content/getting-started/installation.md':
    '---\nicon: download\n---\n\n# Installation\n\n![Diagram](../.gitbook/assets/diagram%20%281%29.png)\n',
  'packages/site/content/getting-started/installation/linux.md':
    '# On Linux\n\n<img src="../../.gitbook/assets/banner.png" alt="banner">\n\n![Not there](../../.gitbook/assets/nope.png)\n',
  'packages/site/content/getting-started/quick-start.md': '# Quick start\n\nNo images here. [A link](../reference/api/README.md)\n',
  'packages/site/content/reference/café-crème.md': '# Café & Crème\n\n![Screen](<../.gitbook/assets/截圖 (1).png>)\n',
  'packages/site/content/reference/簡介.md': '# 簡介\n\n內容。![Logo again](/.gitbook/assets/logo.png)\n',
  'packages/site/content/reference/api/README.md': '# API\n\n{% hint style="info" %}\nReference.\n{% endhint %}\n',
  'packages/site/content/unlisted.md': '# Not in SUMMARY\n',
  'packages/site/content/.gitbook/assets/logo.png': logo,
  'packages/site/content/.gitbook/assets/diagram (1).png': diagram,
  'packages/site/content/.gitbook/assets/截圖 (1).png': screenshot,
  'packages/site/content/.gitbook/assets/banner.png': banner,
  'packages/site/content/.gitbook/assets/unused.png': pngBytes(2, 2, 9),
};

beforeAll(async () => {
  scratch = await fs.mkdtemp(join(tmpdir(), 'quire-import-'));
  root = join(scratch, 'repos');
  cacheDir = join(scratch, 'cache');
  docsCommit = await createRepoFromFiles(root, 'docs', docsRepo, { message: 'Docs for the import test' });
  await createRepoFromFiles(root, 'private', { 'README.md': '# Private\n', 'SUMMARY.md': '* [Private](README.md)\n' });
  server = await startGitHttpServer({ root, auth: { private: alice } });
});

afterAll(async () => {
  await server?.close();
  await fs.rm(scratch, { recursive: true, force: true });
});

function flatten(pages: ImportedPage[]): ImportedPage[] {
  return pages.flatMap((p) => [p, ...flatten(p.children)]);
}

/** The cache repository importOf(name, { repoCacheId }) uses. */
function cacheOf(name: string, repoCacheId: string): string {
  return cacheRepositoryPath(cacheDir, `${server.url}/${name}.git`, repoCacheId);
}

async function importOf(name: string, opts: Partial<ImportGitRepositoryOptions> = {}) {
  return importGitRepository({ url: `${server.url}/${name}.git`, ref: 'refs/heads/main', cacheDir, allowedHosts: LOCAL_HOSTS, ...opts });
}

async function failureOf(promise: Promise<unknown>): Promise<GitImportError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GitImportError);
  return error as GitImportError;
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath ?? (e as { path: string }).path, e.name));
}

describe('importGitRepository: a monorepo with a project directory', () => {
  let result: Awaited<ReturnType<typeof importGitRepository>>;
  beforeAll(async () => {
    result = await importOf('docs', { projectDirectory: 'packages/site', repoCacheId: 'monorepo' });
  });

  it('returns the commit', () => {
    expect(result.commit).toEqual({
      oid: docsCommit,
      message: 'Docs for the import test\n',
      author: { name: 'Quire Test', email: 'test@quire.invalid' },
      timestamp: expect.any(Date),
    });
    expect(Math.abs(result.commit.timestamp.getTime() - Date.now())).toBeLessThan(10 * 60_000);
  });

  it('reads the page tree from the docs root: groups, nesting, link titles, non-ASCII names', () => {
    expect(result.layout.docsRoot).toBe('packages/site/content/');
    expect(result.layout.readmePath).toBe('packages/site/content/README.md');
    expect(result.layout.pages.map((p) => `${p.kind} ${p.path}`)).toEqual([
      'sheet welcome',
      'group getting-started',
      'group reference',
    ]);
    expect(flatten(result.layout.pages).map((p) => [p.path, p.title, p.sourcePath?.replace('packages/site/content/', '')])).toEqual([
      ['welcome', 'Welcome', 'README.md'],
      ['getting-started', 'Getting started', undefined],
      ['getting-started/installation', 'Installation', 'getting-started/installation.md'],
      ['getting-started/installation/linux', 'On Linux', 'getting-started/installation/linux.md'],
      ['getting-started/quick-start', 'Quick start', 'getting-started/quick-start.md'],
      ['reference', 'Reference', undefined],
      ['reference/café-crème', 'Café & Crème', 'reference/café-crème.md'],
      ['reference/簡介', '簡介', 'reference/簡介.md'],
      ['reference/api', 'API', 'reference/api/README.md'],
    ]);
    expect(flatten(result.layout.pages).find((p) => p.title === 'Quick start')?.linkTitle).toBe('Quick');
  });

  it('returns the pages and the assets they reference, relative to the docs root, and nothing else', () => {
    expect(Object.keys(result.files).sort()).toEqual(
      [
        'README.md',
        'getting-started/installation.md',
        'getting-started/installation/linux.md',
        'getting-started/quick-start.md',
        'reference/café-crème.md',
        'reference/簡介.md',
        'reference/api/README.md',
        '.gitbook/assets/logo.png',
        '.gitbook/assets/diagram (1).png',
        '.gitbook/assets/截圖 (1).png',
        '.gitbook/assets/banner.png',
      ].sort(),
    );
    expect(new TextDecoder().decode(result.files['README.md'])).toBe(docsRepo['packages/site/content/README.md']);
    expect(Buffer.from(result.files['.gitbook/assets/diagram (1).png']).equals(Buffer.from(diagram))).toBe(true);
  });

  it('describes each asset with its size, type and dimensions', () => {
    expect(result.assets).toEqual([
      { path: '.gitbook/assets/banner.png', contentType: 'image/png', size: banner.byteLength, width: 120, height: 20 },
      { path: '.gitbook/assets/diagram (1).png', contentType: 'image/png', size: diagram.byteLength, width: 40, height: 30 },
      { path: '.gitbook/assets/logo.png', contentType: 'image/png', size: logo.byteLength, width: 16, height: 8 },
      { path: '.gitbook/assets/截圖 (1).png', contentType: 'image/png', size: screenshot.byteLength, width: 3, height: 5 },
    ]);
  });

  it('imports the rest when SUMMARY links to a missing page or a page to a missing image, with warnings', () => {
    expect(result.warnings).toEqual([
      expect.stringMatching(/SUMMARY\.md links to missing file reference\/gone\.md/),
      'packages/site/content/getting-started/installation/linux.md: ../../.gitbook/assets/nope.png does not exist in the repository',
    ]);
  });

  it('keeps a bare cache without a checkout or a stored URL', async () => {
    const gitdir = cacheOf('docs', 'monorepo');
    const entries = await fs.readdir(gitdir);
    expect(entries).toEqual(expect.arrayContaining(['HEAD', 'config', 'objects', 'refs', 'shallow']));
    expect(entries).not.toContain('packages');
    expect(await fs.readFile(join(gitdir, 'config'), 'utf8')).not.toMatch(/url\s*=|127\.0\.0\.1/);
  });
});

describe('importGitRepository: re-import', () => {
  const packs = async (id: string) => (await fs.readdir(join(cacheOf('growing', id), 'objects', 'pack'))).filter((f) => f.endsWith('.pack'));
  const objectCount = async (id: string, pack: string) => (await fs.readFile(join(cacheOf('growing', id), 'objects', 'pack', pack))).readUInt32BE(8);

  it('fetches only what changed after a one-page edit, and nothing when nothing changed', async () => {
    const files: Record<string, string | Uint8Array> = { 'README.md': '# Home\n', 'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n' };
    for (let i = 0; i < 200; i++) {
      files['SUMMARY.md'] += `* [Page ${i}](part-${i % 5}/page-${i}.md)\n`;
      files[`part-${i % 5}/page-${i}.md`] = `# Page ${i}\n\n${'Text. '.repeat(200)}\n\n![](../.gitbook/assets/img-${i % 20}.png)\n`;
    }
    for (let i = 0; i < 20; i++) files[`.gitbook/assets/img-${i}.png`] = pngBytes(64, 64, i);
    await createRepoFromFiles(root, 'growing', files);

    let started = performance.now();
    let requests = server.requests;
    const first = await importOf('growing', { repoCacheId: 'growing' });
    const firstMs = performance.now() - started;
    expect(server.requests - requests).toBe(2); // refs advertisement + upload-pack
    expect(Object.keys(first.files)).toHaveLength(221);
    const [firstPack] = await packs('growing');
    expect(await objectCount('growing', firstPack)).toBeGreaterThan(220);

    files['part-3/page-3.md'] = '# Page 3\n\nRewritten.\n';
    const second = await createRepoFromFiles(root, 'growing', files, { message: 'Edit page 3' });
    started = performance.now();
    requests = server.requests;
    const again = await importOf('growing', { repoCacheId: 'growing' });
    const againMs = performance.now() - started;
    expect(server.requests - requests).toBe(2);
    expect(again.commit.oid).toBe(second);
    expect(again.commit.message).toBe('Edit page 3\n');
    expect(new TextDecoder().decode(again.files['part-3/page-3.md'])).toBe('# Page 3\n\nRewritten.\n');
    // The second pack holds the commit, the root tree, part-3's tree and the page: the
    // server was told which commit the cache already had.
    const newPacks = (await packs('growing')).filter((p) => p !== firstPack);
    expect(newPacks).toHaveLength(1);
    expect(await objectCount('growing', newPacks[0])).toBeLessThanOrEqual(4);
    console.log(`import of 201 pages + 20 images: first ${firstMs.toFixed(0)} ms, after a one-page edit ${againMs.toFixed(0)} ms`);

    requests = server.requests;
    const unchanged = await importOf('growing', { repoCacheId: 'growing' });
    expect(unchanged.commit.oid).toBe(second);
    expect(await packs('growing')).toHaveLength(2);
    expect(server.requests - requests).toBe(2);
  });

  it('starts over from a fresh fetch when the cache is unreadable', async () => {
    await importOf('docs', { projectDirectory: 'packages/site', repoCacheId: 'broken' });
    const packDir = join(cacheOf('docs', 'broken'), 'objects', 'pack');
    for (const file of await fs.readdir(packDir)) await fs.truncate(join(packDir, file), 100);
    const result = await importOf('docs', { projectDirectory: 'packages/site', repoCacheId: 'broken' });
    expect(result.commit.oid).toBe(docsCommit);
    expect(Object.keys(result.files)).toHaveLength(11);
    for (const file of await fs.readdir(packDir)) expect((await fs.stat(join(packDir, file))).size).not.toBe(100);
  });

  it('drops a cache that has piled up too many packs', async () => {
    await importOf('docs', { projectDirectory: 'packages/site', repoCacheId: 'piled' });
    const packDir = join(cacheOf('docs', 'piled'), 'objects', 'pack');
    for (let i = 0; i < 40; i++) await fs.writeFile(join(packDir, `pack-${String(i).padStart(40, '0')}.pack`), '');
    const result = await importOf('docs', { projectDirectory: 'packages/site', repoCacheId: 'piled' });
    expect(result.commit.oid).toBe(docsCommit);
    expect((await fs.readdir(packDir)).filter((f) => f.endsWith('.pack'))).toHaveLength(1);
  });

  it('follows a tag, annotated or not', async () => {
    const gitdir = join(root, 'docs.git');
    const env = { ...process.env, GIT_DIR: gitdir, GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@quire.invalid' };
    await execFileAsync('git', ['tag', '-a', 'v1.0', '-m', 'Release 1.0', docsCommit], { env });
    await execFileAsync('git', ['tag', 'light', docsCommit], { env });
    for (const ref of ['refs/tags/v1.0', 'refs/tags/light', 'v1.0']) {
      const result = await importOf('docs', { ref, projectDirectory: 'packages/site', repoCacheId: `tag-${ref.replace(/\//g, '-')}` });
      expect(result.commit.oid).toBe(docsCommit);
      expect(result.files['README.md']).toBeDefined();
    }
  });
});

describe('importGitRepository: credentials', () => {
  it('imports a private repository with credentials, given as an option or in the URL', async () => {
    const withOption = await importOf('private', { auth: alice, repoCacheId: 'private-a' });
    expect(withOption.layout.pages.map((p) => p.title)).toEqual(['Private']);
    const inUrl = `http://${encodeURIComponent(alice.username)}:${encodeURIComponent(alice.password)}@${server.url.replace('http://', '')}/private.git`;
    const withUrl = await importGitRepository({ url: inUrl, ref: 'refs/heads/main', cacheDir, repoCacheId: 'private-b', allowedHosts: LOCAL_HOSTS });
    expect(withUrl.commit.oid).toBe(withOption.commit.oid);
  });

  it('keeps the caches of different remotes apart, whatever cache id they are given', async () => {
    await importOf('docs', { projectDirectory: 'packages/site', repoCacheId: 'shared' });
    await importOf('private', { auth: alice, repoCacheId: 'shared' });
    expect(cacheOf('docs', 'shared')).not.toBe(cacheOf('private', 'shared'));
    const privateCommit = (await importOf('private', { auth: alice, repoCacheId: 'shared' })).commit.oid;
    const refs = await fs.readFile(join(cacheOf('docs', 'shared'), 'refs', 'heads', 'main'), 'utf8');
    expect(refs.trim()).toBe(docsCommit);
    expect(privateCommit).not.toBe(docsCommit);
  });

  it('never writes credentials to the cache repository', async () => {
    const inUrl = `http://alice:${encodeURIComponent(alice.password)}@${server.url.replace('http://', '')}/private.git`;
    await importGitRepository({ url: inUrl, ref: 'refs/heads/main', cacheDir, repoCacheId: 'private-c', allowedHosts: LOCAL_HOSTS });
    for (const file of await filesUnder(cacheOf('private', 'private-c'))) {
      const bytes = await fs.readFile(file);
      expect(bytes.includes(alice.password)).toBe(false);
      expect(bytes.includes(encodeURIComponent(alice.password))).toBe(false);
    }
  });

  it('fails with auth_failed without credentials, permanently', async () => {
    const error = await failureOf(importOf('private', { repoCacheId: 'private-none' }));
    expect(error).toMatchObject({ code: 'auth_failed', transient: false, statusCode: 401 });
    expect(error.message).toContain(`${server.url}/private.git requires credentials`);
  });

  it('fails with auth_failed for a wrong password, and no message holds a credential', async () => {
    const wrong = { username: 'alice', password: 'wrong-Secret-42' };
    const error = await failureOf(importOf('private', { auth: wrong, repoCacheId: 'private-wrong' }));
    expect(error).toMatchObject({ code: 'auth_failed', transient: false });
    const inUrl = `http://alice:wrong-Secret-42@${server.url.replace('http://', '')}/private.git`;
    const fromUrl = await failureOf(importGitRepository({ url: inUrl, ref: 'refs/heads/main', cacheDir, allowedHosts: LOCAL_HOSTS }));
    expect(fromUrl.code).toBe('auth_failed');
    for (const e of [error, fromUrl]) {
      expect(`${e.message} ${e.stack}`).not.toContain('wrong-Secret-42');
      expect(e.message).not.toContain('alice:');
    }
  });
});

describe('importGitRepository: a remote whose HEAD is dangling', () => {
  // A bare repository whose HEAD says master while only main was pushed (and what Gogs or a
  // bundle cloned bare serve): git advertises no HEAD at all.
  beforeAll(async () => {
    await createRepoFromFiles(root, 'dangling', { 'README.md': '# Dangling\n', 'SUMMARY.md': '* [Dangling](README.md)\n' });
    await execFileAsync('git', ['--git-dir', join(root, 'dangling.git'), 'symbolic-ref', 'HEAD', 'refs/heads/master']);
  });

  it('reads a symbolic link to a file of the commit as that file; other links and submodules are left out', async () => {
    const work = await fs.mkdtemp(join(scratch, 'links-'));
    const env = { ...process.env, GIT_AUTHOR_NAME: 'a', GIT_AUTHOR_EMAIL: 'a@example.com', GIT_COMMITTER_NAME: 'a', GIT_COMMITTER_EMAIL: 'a@example.com' };
    const sh = (...args: string[]) => execFileAsync('git', args, { cwd: work, env });
    await sh('init', '-q', '-b', 'main');
    await fs.writeFile(join(work, 'README.md'), '# Home\n\n![Logo](assets/logo.png)\n');
    await fs.writeFile(join(work, 'SUMMARY.md'), '* [Home](README.md)\n* [Guide](guide.md)\n* [Chained](chained.md)\n* [Outside](outside.md)\n* [Loop](loop.md)\n* [Vendor](vendor/README.md)\n');
    await fs.mkdir(join(work, 'docs'));
    await fs.writeFile(join(work, 'docs/guide.md'), '# The guide\n');
    await fs.symlink('docs/guide.md', join(work, 'guide.md'));
    await fs.symlink('guide.md', join(work, 'chained.md'));
    await fs.symlink('../../etc/hostname', join(work, 'outside.md'));
    await fs.symlink('loop.md', join(work, 'loop.md'));
    await fs.mkdir(join(work, 'media'));
    await fs.writeFile(join(work, 'media/logo.png'), logo);
    await fs.mkdir(join(work, 'assets'));
    await fs.symlink('../media/logo.png', join(work, 'assets/logo.png'));
    await sh('add', '-A');
    await sh('update-index', '--add', '--cacheinfo', '160000,1111111111111111111111111111111111111111,vendor');
    await sh('commit', '-q', '-m', 'links');
    await execFileAsync('git', ['clone', '-q', '--bare', work, join(root, 'links.git')]);

    const result = await importOf('links');
    expect(flatten(result.layout.pages).map((p) => [p.title, p.sourcePath])).toEqual([
      ['Home', 'README.md'],
      ['Guide', 'guide.md'],
      ['Chained', 'chained.md'],
    ]);
    expect(new TextDecoder().decode(result.files['guide.md'])).toBe('# The guide\n');
    expect(new TextDecoder().decode(result.files['chained.md'])).toBe('# The guide\n');
    expect(result.assets.map((a) => a.path)).toEqual(['assets/logo.png']);
    expect(Buffer.from(result.files['assets/logo.png']).equals(Buffer.from(logo))).toBe(true);
    // Said for what it is, not as a missing file.
    expect(result.warnings).toEqual([
      'SUMMARY.md links to outside.md, which is a symbolic link that does not lead to a file of the repository (line 4); skipped',
      'SUMMARY.md links to loop.md, which is a symbolic link that does not lead to a file of the repository (line 5); skipped',
      'SUMMARY.md links to vendor/README.md, which is in the git submodule vendor, whose files belong to another repository (line 6); skipped',
    ]);
  });

  it('imports a named branch, first and again', async () => {
    for (const round of [1, 2]) {
      const result = await importOf('dangling', { repoCacheId: 'dangling-named' });
      expect([round, flatten(result.layout.pages).map((p) => p.title)]).toEqual([round, ['Dangling']]);
    }
  });

  it('without a ref, fails as ref_not_found saying there is no default branch', async () => {
    const error = await failureOf(importOf('dangling', { ref: undefined, repoCacheId: 'dangling-default' }));
    expect(error).toMatchObject({ code: 'ref_not_found', transient: false });
    expect(error.message).toMatch(/no default branch/);
  });

  it('without a ref, imports the default branch of a remote whose HEAD resolves', async () => {
    const result = await importOf('docs', { ref: undefined, projectDirectory: 'packages/site', repoCacheId: 'default-branch' });
    expect(result.commit.oid).toBe(docsCommit);
  });
});

describe('importGitRepository: token query parameters and the cache lock', () => {
  it('sends token query parameters with every request and never shows them', async () => {
    const seen: string[] = [];
    const recording: Server = createHttpServer((req, res) => {
      seen.push(req.url ?? '');
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end(`no ${req.url}`);
    });
    await new Promise<void>((ready) => recording.listen(0, '127.0.0.1', ready));
    try {
      const { port } = recording.address() as AddressInfo;
      const error = await failureOf(importGitRepository({ url: `http://127.0.0.1:${port}/docs.git?private_token=T0ken-xyz`, ref: 'refs/heads/main', cacheDir, allowedHosts: LOCAL_HOSTS }));
      expect(error.code).toBe('repo_not_found');
      expect(seen).toEqual(['/docs.git/info/refs?service=git-upload-pack&private_token=T0ken-xyz']);
      expect(`${error.message} ${error.stack}`).not.toContain('T0ken-xyz');
    } finally {
      await new Promise((closed) => recording.close(closed));
    }
  });

  it('waits while another process holds the lock file of the cache repository', async () => {
    const gitdir = cacheOf('docs', 'cross-process');
    await fs.mkdir(cacheDir, { recursive: true });
    // What another worker process holds while it imports the same repository.
    const release = await lockfile.lock(gitdir, { lockfilePath: `${gitdir}.lock`, realpath: false });
    let done = false;
    const running = importOf('docs', { projectDirectory: 'packages/site', repoCacheId: 'cross-process' }).finally(() => (done = true));
    await new Promise((r) => setTimeout(r, 1_000));
    // Not a byte written meanwhile: without the lock, the cache would be created at once.
    expect(done).toBe(false);
    await expect(fs.stat(gitdir)).rejects.toMatchObject({ code: 'ENOENT' });
    await release();
    expect((await running).commit.oid).toBe(docsCommit);
    await expect(fs.stat(`${gitdir}.lock`)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('importGitRepository: failures a user can act on', () => {
  it('reports an unknown branch as ref_not_found', async () => {
    const error = await failureOf(importOf('docs', { ref: 'refs/heads/nope' }));
    expect(error).toMatchObject({ code: 'ref_not_found', transient: false });
    expect(error.message).toContain('refs/heads/nope');
  });

  it('refuses a repository larger than maxBytes with repository_too_large, permanently, and leaves no pack behind', async () => {
    const repoCacheId = 'too-large';
    const error = await failureOf(importOf('docs', { projectDirectory: 'packages/site', repoCacheId, maxBytes: 2048 }));
    expect(error).toMatchObject({ code: 'repository_too_large', transient: false });
    expect(error.message).toMatch(/exceed the limit of 2048 bytes \(QUIRE_IMPORT_MAX_BYTES\)/);
    const packs = (await filesUnder(join(cacheOf('docs', repoCacheId), 'objects'))).filter((f) => /\.(pack|idx)$|tmp_pack_/.test(f));
    expect(packs).toEqual([]);
    // Within the limit, the same repository imports.
    const imported = await importOf('docs', { projectDirectory: 'packages/site', repoCacheId, maxBytes: 10 * 1024 * 1024 });
    expect(imported.commit.oid).toBe(docsCommit);
  });

  it('reports an unknown repository as repo_not_found', async () => {
    const error = await failureOf(importOf('no-such-repo'));
    expect(error).toMatchObject({ code: 'repo_not_found', transient: false });
  });

  it('reports an unknown host as unreachable_host', async () => {
    const error = await failureOf(importGitRepository({ url: 'http://quire-no-such-host.invalid/docs.git', ref: 'refs/heads/main', cacheDir, allowedHosts: LOCAL_HOSTS }));
    expect(error.code).toBe('unreachable_host');
    expect(error.message).toContain('quire-no-such-host.invalid');
  });

  it('reports a closed port as unreachable_host, worth retrying', async () => {
    const port = await freePort();
    const error = await failureOf(
      importGitRepository({ url: `http://user:hunter22@127.0.0.1:${port}/docs.git`, ref: 'refs/heads/main', cacheDir, allowedHosts: LOCAL_HOSTS }),
    );
    expect(error).toMatchObject({ code: 'unreachable_host', transient: true });
    // The same words as for a refused address or any other network failure: no socket detail
    // that would tell one service from another.
    expect(error.message).toBe(`Cannot reach 127.0.0.1:${port}: the host is unknown, did not answer, or is not allowed (private and reserved addresses are refused unless an operator allows the host)`);
  });

  it('gives up on a server that accepts the connection and says nothing', async () => {
    const sockets: Socket[] = [];
    const silent = createTcpServer((socket) => sockets.push(socket));
    await new Promise<void>((ready) => silent.listen(0, '127.0.0.1', ready));
    try {
      const { port } = silent.address() as AddressInfo;
      const started = performance.now();
      const error = await failureOf(
        importGitRepository({ url: `http://127.0.0.1:${port}/docs.git`, ref: 'refs/heads/main', cacheDir, timeoutMs: 300, allowedHosts: LOCAL_HOSTS }),
      );
      expect(error).toMatchObject({ code: 'unreachable_host', transient: true });
      expect(performance.now() - started).toBeLessThan(5000);
    } finally {
      sockets.forEach((s) => s.destroy());
      await new Promise((closed) => silent.close(closed));
    }
  });

  it('reports a 5xx as a transient remote_error', async () => {
    const failing: Server = createHttpServer((_, res) => res.writeHead(503, { 'Content-Type': 'text/plain' }).end('maintenance'));
    await new Promise<void>((ready) => failing.listen(0, '127.0.0.1', ready));
    try {
      const { port } = failing.address() as AddressInfo;
      const error = await failureOf(importGitRepository({ url: `http://127.0.0.1:${port}/docs.git`, ref: 'refs/heads/main', cacheDir, allowedHosts: LOCAL_HOSTS }));
      expect(error).toMatchObject({ code: 'remote_error', transient: true, statusCode: 503 });
    } finally {
      await new Promise((closed) => failing.close(closed));
    }
  });

  it('refuses URLs that are not http(s)', async () => {
    for (const url of ['git@github.com:org/docs.git', 'ssh://git@host/docs.git', 'not a url']) {
      expect(await failureOf(importGitRepository({ url, ref: 'refs/heads/main', cacheDir, allowedHosts: LOCAL_HOSTS }))).toMatchObject({ code: 'invalid_url' });
    }
  });

  it('reports a repository without README as no_readme and a broken .gitbook.yaml as invalid_config', async () => {
    await createRepoFromFiles(root, 'no-readme', { 'docs/intro.md': '# Intro\n' });
    await createRepoFromFiles(root, 'bad-config', { '.gitbook.yaml': 'root: [unclosed\n', 'README.md': '# Hi\n' });
    expect(await failureOf(importOf('no-readme'))).toMatchObject({ code: 'no_readme', transient: false });
    expect(await failureOf(importOf('bad-config'))).toMatchObject({ code: 'invalid_config', transient: false });
  });
});

async function freePort(): Promise<number> {
  const probe = createTcpServer();
  await new Promise<void>((ready) => probe.listen(0, '127.0.0.1', ready));
  const { port } = probe.address() as AddressInfo;
  await new Promise((closed) => probe.close(closed));
  return port;
}
