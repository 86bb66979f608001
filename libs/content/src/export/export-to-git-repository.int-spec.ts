/**
 * Exports space revisions over smart HTTP to repositories served by `git http-backend`
 * (push enabled, with and without Basic auth), and checks the result with git itself: the
 * real GitBook repositories of /work/shared/fixtures are imported, exported to an empty
 * repository and compared blob by blob; edits, moved branches, protected branches and bad
 * credentials each behave as the export promises.
 */
import { execFile } from 'child_process';
import { randomBytes } from 'crypto';
import { promises as fs } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { promisify } from 'util';
import { gitExportAggregate, planExport, type GitExportRequest } from '@quire/domain';
import { cloneBundle, createEmptyRepo, createRepoFromFiles, startGitHttpServer, type GitHttpServer } from '@quire/test-support/git-http-server';
import { importGitRepository } from '../import/import-git-repository';
import { importedRevisionFiles } from '../revision/imported-revision-files';
import { ContentStore } from '../store/content-store';
import type { FileMode, RevisionFileInput } from '../store';
import { GitExportError } from './export.errors';
import { exportToGitRepository, type ExportToGitRepositoryOptions } from './export-to-git-repository';

const execFileAsync = promisify(execFile);
/** The local git server is a private address: allowed as an operator allows an intranet host. */
const LOCAL_HOSTS = ['127.0.0.1'];
const FIXTURES = process.env.QUIRE_FIXTURES_DIR ?? '/work/shared/fixtures';
const SPACE = 'space1';
const AUTHOR = { name: 'Ada Lovelace', email: 'ada@example.com' };
const QUIRE = { name: 'Quire', email: 'quire@localhost' };
const encode = (text: string) => new TextEncoder().encode(text);

let scratch: string;
let repos: string;
let server: GitHttpServer;
let store: ContentStore;

beforeAll(async () => {
  scratch = await fs.mkdtemp(join(tmpdir(), 'quire-export-'));
  repos = join(scratch, 'repos');
  for (const name of ['noislabs-gitbook-docs', 'fluent-fluentd-docs-gitbook', 'pgsql-tw-gitbook-docs']) await cloneBundle(join(FIXTURES, `${name}.bundle`), repos, name);
  server = await startGitHttpServer({
    root: repos,
    allowAnonymousPush: true,
    auth: { private: { username: 'ada', password: 's3cret-pw' } },
    protectedRefs: ['refs/heads/protected'],
  });
  store = new ContentStore({ dataDir: join(scratch, 'data') });
});

afterAll(async () => {
  await server?.close();
  await fs.rm(scratch, { recursive: true, force: true });
});

async function gitOut(gitdir: string, ...args: string[]): Promise<string> {
  const { stdout } = await execFileAsync('git', ['--git-dir', gitdir, ...args], { maxBuffer: 64 << 20 });
  return stdout.trim();
}

/** `mode type oid\tpath` of every file of a commit, by git itself. */
async function lsTree(gitdir: string, rev: string, prefix = ''): Promise<string[]> {
  const out = await gitOut(gitdir, 'ls-tree', '-r', '--full-tree', rev, ...(prefix ? ['--', prefix] : []));
  return out.split('\n').filter(Boolean).map((line) => (prefix ? line.replace(`\t${prefix}`, '\t') : line)).sort();
}

/** Imports a branch into the space as its import would (a revision of the imported files). */
async function importRevision(name: string, branch: string, parents: string[] = []): Promise<{ revision: string; commit: string }> {
  const result = await importGitRepository({ url: `${server.url}/${name}.git`, ref: `refs/heads/${branch}`, cacheDir: join(scratch, 'cache'), allowedHosts: LOCAL_HOSTS });
  const revision = await store.writeRevision({
    spaceId: SPACE,
    parents,
    files: importedRevisionFiles(result.layout, result.files),
    message: result.commit.message,
    author: result.commit.author,
    timestamp: new Date(),
  });
  return { revision, commit: result.commit.oid };
}

/** The domain's state after the given syncs, so exports are planned by the real rule. */
function synced(url: string, ref: string, commits: Array<{ commit: string; revision: string }>) {
  let state = gitExportAggregate.initialState();
  commits.forEach(({ commit, revision }, i) => {
    const request = { importId: `i${i}`, url, ref, hasCredentials: false };
    state = gitExportAggregate.evolve(state, { type: 'GitImportRequested', data: { spaceId: SPACE, request, requestedBy: 'u', at: '' } });
    state = gitExportAggregate.evolve(state, { type: 'GitImportCompleted', data: { spaceId: SPACE, importId: `i${i}`, revision, commit: { oid: commit, message: '' }, standalone: false, warnings: [], at: '' } });
  });
  return state;
}

async function exportRevision(
  revision: string,
  opts: {
    repo: string;
    ref?: string;
    projectDirectory?: string;
    force?: boolean;
    syncs?: Array<{ commit: string; revision: string }>;
    auth?: ExportToGitRepositoryOptions['auth'];
    /** Runs once the branch was read, before the commit is built and pushed. */
    whilePlanning?: () => Promise<unknown>;
    /** The space exported from (SPACE by default). */
    space?: string;
  },
) {
  const space = opts.space ?? SPACE;
  const url = `${server.url}/${opts.repo}.git`;
  const ref = opts.ref ?? 'refs/heads/main';
  const state = synced(url, ref, opts.syncs ?? []);
  const request: GitExportRequest = { exportId: 'e', url, ref, commitMessage: 'Update from Quire', force: opts.force, hasCredentials: !!opts.auth };
  return exportToGitRepository({
    url,
    ref,
    auth: opts.auth,
    cacheDir: join(scratch, 'cache'),
    allowedHosts: LOCAL_HOSTS,
    projectDirectory: opts.projectDirectory,
    spaceGitdir: store.repositoryPath(space),
    files: await store.readRevisionFiles(space, revision),
    plan: async (remoteCommit) => {
      await opts.whilePlanning?.();
      const plan = planExport(state, request, remoteCommit);
      const base = plan.kind === 'on-top' ? plan.base : undefined;
      return { plan, baseFiles: base ? await store.readRevisionFiles(space, base) : undefined };
    },
    commitMessage: request.commitMessage,
    author: AUTHOR,
    committer: QUIRE,
    timestamp: new Date('2026-11-24T12:00:00Z'),
  });
}

/** A revision with one page's text changed, everything else by oid. */
async function editPage(parent: string, path: string, text: string): Promise<string> {
  const files: Record<string, RevisionFileInput> = {};
  for (const f of await store.readRevisionFiles(SPACE, parent)) files[f.path] = { oid: f.oid, mode: f.mode as FileMode };
  files[path] = new TextEncoder().encode(text);
  return store.writeRevision({ spaceId: SPACE, parents: [parent], files, message: 'edit', author: AUTHOR, timestamp: new Date() });
}

describe('exportToGitRepository', () => {
  it.each([
    ['noislabs-gitbook-docs', 'main'],
    ['fluent-fluentd-docs-gitbook', '1.0'],
    ['pgsql-tw-gitbook-docs', 'master'],
  ])('exports %s to an empty repository: the same tree as the space revision, blob by blob', async (name, branch) => {
    const { revision } = await importRevision(name, branch);
    await createEmptyRepo(repos, `${name}-copy`);
    const result = await exportRevision(revision, { repo: `${name}-copy` });
    expect(result).toMatchObject({ outcome: 'pushed' });
    const pushed = join(repos, `${name}-copy.git`);
    expect(await lsTree(pushed, 'main')).toEqual(await lsTree(store.repositoryPath(SPACE), revision));
    expect(await gitOut(pushed, 'log', '-1', '--format=%an <%ae>|%cn <%ce>|%s|%P', 'main')).toBe('Ada Lovelace <ada@example.com>|Quire <quire@localhost>|Update from Quire|');
    await gitOut(pushed, 'fsck', '--strict', '--no-progress');
  });

  it('exports to the repository it was imported from: nothing pushed while unchanged; an edit of one page changes that file only', async () => {
    const name = 'noislabs-gitbook-docs';
    const origin = join(repos, `${name}.git`);
    const { revision, commit } = await importRevision(name, 'main');
    const before = await gitOut(origin, 'rev-parse', 'main');
    const same = await exportRevision(revision, { repo: name, syncs: [{ commit, revision }] });
    expect(same).toEqual({ outcome: 'unchanged', commit, parent: commit, objectsSent: 0 });
    expect(await gitOut(origin, 'rev-parse', 'main')).toBe(before);

    const page = (await store.readRevisionFiles(SPACE, revision)).find((f) => f.path.endsWith('.md') && f.path !== 'README.md' && f.path !== 'SUMMARY.md')!;
    const edited = await editPage(revision, page.path, '# Edited in Quire\n\nNew text.\n');
    const result = await exportRevision(edited, { repo: name, syncs: [{ commit, revision }] });
    expect(result).toMatchObject({ outcome: 'pushed', parent: commit, objectsSent: 1 });
    const head = await gitOut(origin, 'rev-parse', 'main');
    expect(await gitOut(origin, 'rev-parse', 'main^')).toBe(commit);
    expect((await gitOut(origin, 'diff-tree', '-r', '--name-status', `${commit}`, head)).split('\n')).toEqual([`M\t${page.path}`]);
    expect(await gitOut(origin, 'show', `${head}:${page.path}`)).toBe('# Edited in Quire\n\nNew text.');

    // Importing what was just exported gives the revision's own tree: no new revision.
    const { revision: reimported } = await importRevision(name, 'main', [edited]);
    expect((await store.readRevision(SPACE, reimported)).tree).toBe((await store.readRevision(SPACE, edited)).tree);
  });

  it('keeps an imported SUMMARY.md and .gitbook.yaml byte for byte, and the files the space never held', async () => {
    const name = 'fluent-fluentd-docs-gitbook';
    const origin = join(repos, `${name}.git`);
    const { revision, commit } = await importRevision(name, '1.0');
    const page = (await store.readRevisionFiles(SPACE, revision)).find((f) => f.path.endsWith('.md') && !['README.md', 'SUMMARY.md'].includes(f.path))!;
    const edited = await editPage(revision, page.path, '# Changed\n');
    const result = await exportRevision(edited, { repo: name, ref: 'refs/heads/1.0', syncs: [{ commit, revision }] });
    expect(result).toMatchObject({ outcome: 'pushed' });
    const changes = (await gitOut(origin, 'diff-tree', '-r', '--name-only', commit, 'refs/heads/1.0')).split('\n');
    expect(changes).toHaveLength(1);
    expect(changes[0].endsWith(page.path)).toBe(true);
  });

  it('refuses with remote_changed when the branch moved to commits the space has not seen, and force pushes on top of them', async () => {
    const name = 'moved';
    await createRepoFromFiles(repos, name, { 'README.md': '# Hello\n', 'SUMMARY.md': '* [Hello](README.md)\n' });
    const { revision, commit } = await importRevision(name, 'main');
    const theirs = await createRepoFromFiles(repos, name, { 'README.md': '# Hello\n', 'SUMMARY.md': '* [Hello](README.md)\n', 'other.md': '# Theirs\n' });
    const edited = await editPage(revision, 'README.md', '# Hello from Quire\n');
    const refused = await exportRevision(edited, { repo: name, syncs: [{ commit, revision }] });
    expect(refused).toMatchObject({ outcome: 'refused', plan: { code: 'remote_changed' } });
    expect(await gitOut(join(repos, `${name}.git`), 'rev-parse', 'main')).toBe(theirs);

    const forced = await exportRevision(edited, { repo: name, syncs: [{ commit, revision }], force: true });
    expect(forced).toMatchObject({ outcome: 'pushed', parent: theirs });
    expect(await gitOut(join(repos, `${name}.git`), 'show', 'main:README.md')).toBe('# Hello from Quire');
  });

  it('fails with remote_changed (transient), overwriting nothing, when the branch moves after it was read', async () => {
    const name = 'race';
    await createEmptyRepo(repos, name);
    const { revision } = await importRevision('noislabs-gitbook-docs', 'main');
    let theirs = '';
    const raced = exportRevision(revision, { repo: name, whilePlanning: async () => (theirs = await createRepoFromFiles(repos, name, { 'README.md': '# Theirs\n' })) });
    await expect(raced).rejects.toMatchObject({ code: 'remote_changed', transient: true });
    expect(await gitOut(join(repos, `${name}.git`), 'rev-parse', 'main')).toBe(theirs);
  });

  it('creates a missing branch, under the project directory', async () => {
    const name = 'mono';
    await createRepoFromFiles(repos, name, { 'package.json': '{}\n' });
    const { revision } = await importRevision('noislabs-gitbook-docs', 'main');
    const result = await exportRevision(revision, { repo: name, ref: 'refs/heads/docs', projectDirectory: 'docs' });
    expect(result).toMatchObject({ outcome: 'pushed', parent: undefined });
    const gitdir = join(repos, `${name}.git`);
    expect(await lsTree(gitdir, 'docs', 'docs/')).toEqual(await lsTree(store.repositoryPath(SPACE), revision));
    expect(await gitOut(gitdir, 'show', 'main:package.json')).toBe('{}');
  });

  it('pushes with Basic credentials, and fails with auth_failed without them or with wrong ones (never echoing them)', async () => {
    await createEmptyRepo(repos, 'private');
    const { revision } = await importRevision('noislabs-gitbook-docs', 'main');
    const anonymous = exportRevision(revision, { repo: 'private' });
    await expect(anonymous).rejects.toMatchObject({ code: 'auth_failed', transient: false });
    const wrong = await exportRevision(revision, { repo: 'private', auth: { username: 'ada', password: 'wrong-pw' } }).catch((e: Error) => e);
    expect(wrong).toBeInstanceOf(GitExportError);
    expect(wrong).toMatchObject({ code: 'auth_failed' });
    expect((wrong as Error).message).not.toContain('wrong-pw');
    await expect(exportRevision(revision, { repo: 'private', auth: { username: 'ada', password: 's3cret-pw' } })).resolves.toMatchObject({ outcome: 'pushed' });
  });

  it('fails with push_rejected on a protected branch, and unreachable_host (transient) when nothing answers', async () => {
    const { revision } = await importRevision('noislabs-gitbook-docs', 'main');
    await createEmptyRepo(repos, 'guarded');
    await expect(exportRevision(revision, { repo: 'guarded', ref: 'refs/heads/protected' })).rejects.toMatchObject({ code: 'push_rejected', transient: false });
    expect(await gitOut(join(repos, 'guarded.git'), 'for-each-ref')).toBe('');

    const offline = exportToGitRepository({
      url: 'http://127.0.0.1:1/nothing.git',
      ref: 'refs/heads/main',
      cacheDir: join(scratch, 'cache'),
      allowedHosts: LOCAL_HOSTS,
      spaceGitdir: store.repositoryPath(SPACE),
      files: [],
      plan: async () => ({ plan: { kind: 'create-branch' } }),
      commitMessage: 'x',
      author: AUTHOR,
      committer: QUIRE,
      timestamp: new Date(),
    });
    await expect(offline).rejects.toMatchObject({ code: 'unreachable_host', transient: true });
  });

  it('exports a revision written as a pack (text, and an image stored uncompressed): git accepts every object; a damaged packed object fails the push, and nothing reaches the remote', async () => {
    const packedSpace = 'packed-space';
    const files: Record<string, RevisionFileInput> = { 'README.md': encode('# Home\n'), 'SUMMARY.md': encode('* [Home](README.md)\n') };
    for (let i = 0; i < 80; i++) files[`part/page-${i}.md`] = encode(`# Page ${i}\n\n${'Text of the page. '.repeat(i + 20)}\n`);
    // Random bytes do not compress: stored in their zlib stream (deflateContent), larger than a stored block.
    files['.gitbook/assets/photo.png'] = new Uint8Array(randomBytes(200_000));
    const revision = await store.writeRevision({ spaceId: packedSpace, parents: [], files, message: 'packed', author: AUTHOR, timestamp: new Date() });
    const spaceGitdir = store.repositoryPath(packedSpace);
    expect((await fs.readdir(join(spaceGitdir, 'objects', 'pack'))).filter((f) => f.endsWith('.pack'))).toHaveLength(1);

    await createEmptyRepo(repos, 'packed-copy');
    await expect(exportRevision(revision, { repo: 'packed-copy', space: packedSpace })).resolves.toMatchObject({ outcome: 'pushed', objectsSent: 83 });
    const pushed = join(repos, 'packed-copy.git');
    expect(await lsTree(pushed, 'main')).toEqual(await lsTree(spaceGitdir, revision));
    expect(await gitOut(pushed, 'show', 'main:part/page-7.md')).toBe(new TextDecoder().decode(files['part/page-7.md'] as Uint8Array).trim());
    await gitOut(pushed, 'fsck', '--strict', '--no-progress');

    // One byte of a page's compressed bytes changed in the space's pack (the export links it).
    const page = (await store.readRevisionFiles(packedSpace, revision)).find((f) => f.path === 'part/page-50.md')!;
    const [pack] = (await fs.readdir(join(spaceGitdir, 'objects', 'pack'))).filter((f) => f.endsWith('.pack'));
    const entries = await gitOut(spaceGitdir, 'verify-pack', '-v', join(spaceGitdir, 'objects', 'pack', pack.replace(/pack$/, 'idx')));
    const [, , , sizeInPack, offset] = entries.split('\n').find((line) => line.startsWith(page.oid))!.split(/\s+/);
    const file = await fs.open(join(spaceGitdir, 'objects', 'pack', pack), 'r+');
    const at = Number(offset) + Math.floor(Number(sizeInPack) / 2);
    const byte = Buffer.alloc(1);
    await file.read(byte, 0, 1, at);
    await file.write(Buffer.from([byte[0] ^ 0x55]), 0, 1, at);
    await file.close();

    await createEmptyRepo(repos, 'packed-damaged');
    await expect(exportRevision(revision, { repo: 'packed-damaged', space: packedSpace })).rejects.toBeInstanceOf(GitExportError);
    expect(await gitOut(join(repos, 'packed-damaged.git'), 'for-each-ref')).toBe('');
    expect(await gitOut(join(repos, 'packed-damaged.git'), 'count-objects')).toMatch(/^0 objects/);
  });

  it('refuses a private address the operator did not allow, before any connection, and for good', async () => {
    const requestsBefore = server.requests;
    const refused = exportToGitRepository({
      url: `${server.url}/anything.git`,
      ref: 'refs/heads/main',
      cacheDir: join(scratch, 'cache'),
      allowedHosts: [],
      spaceGitdir: store.repositoryPath(SPACE),
      files: [],
      plan: async () => ({ plan: { kind: 'create-branch' } }),
      commitMessage: 'x',
      author: AUTHOR,
      committer: QUIRE,
      timestamp: new Date(),
    });
    await expect(refused).rejects.toMatchObject({ code: 'unreachable_host', transient: false, message: expect.stringMatching(/is not allowed/) });
    expect(server.requests).toBe(requestsBefore);
  });
});
