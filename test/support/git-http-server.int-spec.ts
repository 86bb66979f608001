import { execFile } from 'child_process';
import * as fs from 'fs';
import { mkdtemp, readFile, rm } from 'fs/promises';
import git from 'isomorphic-git';
import http from 'isomorphic-git/http/node';
import { tmpdir } from 'os';
import { join } from 'path';
import { promisify } from 'util';
import { cloneBundle, createRepoFromFiles, startGitHttpServer, type GitHttpServer } from './git-http-server';

const execFileAsync = promisify(execFile);
const FIXTURES = process.env.QUIRE_FIXTURES_DIR ?? '/work/shared/fixtures';
const alice = { username: 'alice', password: 's3cret:with colon' };

let scratch: string;
let root: string;
let server: GitHttpServer;
let firstCommit: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'quire-git-http-'));
  root = join(scratch, 'repos');
  firstCommit = await createRepoFromFiles(root, 'docs', {
    'README.md': '# Hello\n',
    'guide/page.md': '# Page\n',
    '.gitbook/assets/pixel.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]),
  });
  await createRepoFromFiles(root, 'private', { 'README.md': '# Secret\n' }, { message: 'Private docs' });
  server = await startGitHttpServer({ root, auth: { private: alice } });
});

afterAll(async () => {
  await server?.close();
  await rm(scratch, { recursive: true, force: true });
});

let dirCount = 0;
function cloneDir(): string {
  return join(scratch, `clone-${dirCount++}`);
}

describe('startGitHttpServer', () => {
  it('lets isomorphic-git clone a repository, binary files included', async () => {
    const dir = cloneDir();
    const before = server.requests;
    await git.clone({ fs, http, dir, url: `${server.url}/docs.git` });
    expect(await readFile(join(dir, 'guide/page.md'), 'utf8')).toBe('# Page\n');
    expect([...(await readFile(join(dir, '.gitbook/assets/pixel.png')))]).toEqual([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]);
    expect(await git.resolveRef({ fs, dir, ref: 'HEAD' })).toBe(firstCommit);
    expect(await git.currentBranch({ fs, dir })).toBe('main');
    expect(server.requests - before).toBeGreaterThanOrEqual(2); // refs advertisement + upload-pack
  });

  it('serves the repository without the .git suffix too', async () => {
    const dir = cloneDir();
    await git.clone({ fs, http, dir, url: `${server.url}/docs` });
    expect(await git.resolveRef({ fs, dir, ref: 'HEAD' })).toBe(firstCommit);
  });

  it('serves a shallow, single-branch clone', async () => {
    await createRepoFromFiles(root, 'history', { 'a.md': 'one' }, { message: 'one' });
    await createRepoFromFiles(root, 'history', { 'a.md': 'two' }, { message: 'two' });
    const third = await createRepoFromFiles(root, 'history', { 'a.md': 'three', 'b.md': 'new' }, { message: 'three' });
    await createRepoFromFiles(root, 'history', { 'a.md': 'side' }, { branch: 'side', message: 'side branch' });

    const dir = cloneDir();
    await git.clone({ fs, http, dir, url: `${server.url}/history.git`, depth: 1, singleBranch: true });
    const log = await git.log({ fs, dir });
    expect(log.map((c) => c.oid)).toEqual([third]);
    expect(await readFile(join(dir, '.git/shallow'), 'utf8')).toContain(third);
    expect((await git.listBranches({ fs, dir, remote: 'origin' })).filter((b) => b !== 'HEAD')).toEqual(['main']);
    expect(await readFile(join(dir, 'b.md'), 'utf8')).toBe('new');
  });

  it('makes each commit a snapshot of the files given', async () => {
    const dir = cloneDir();
    await git.clone({ fs, http, dir, url: `${server.url}/history.git`, ref: 'main', singleBranch: true });
    expect((await git.listFiles({ fs, dir })).sort()).toEqual(['a.md', 'b.md']);
    expect((await git.log({ fs, dir })).map((c) => c.commit.message.trim())).toEqual(['three', 'two', 'one']);
  });

  it('lets a clone fetch a commit made after it', async () => {
    const dir = cloneDir();
    await git.clone({ fs, http, dir, url: `${server.url}/docs.git` });
    const next = await createRepoFromFiles(root, 'docs', { 'README.md': '# Hello again\n', 'guide/page.md': '# Page\n' }, { message: 'Second' });
    const result = await git.fetch({ fs, http, dir });
    expect(result.fetchHead).toBe(next);
    expect(await git.resolveRef({ fs, dir, ref: 'refs/remotes/origin/main' })).toBe(next);
    const [head] = await git.log({ fs, dir, ref: 'refs/remotes/origin/main', depth: 1 });
    expect(head.commit.parent).toEqual([firstCommit]);
  });

  it('works for the git command line as well (protocol v2 through Git-Protocol)', async () => {
    const dir = cloneDir();
    await execFileAsync('git', ['-c', 'protocol.version=2', 'clone', '--quiet', `${server.url}/docs.git`, dir], {
      env: { PATH: process.env.PATH, HOME: scratch, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' },
    });
    expect(await readFile(join(dir, 'README.md'), 'utf8')).toBe('# Hello again\n');
  });
});

describe('startGitHttpServer with auth', () => {
  const infoRefs = () => `${server.url}/private.git/info/refs?service=git-upload-pack`;
  const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;

  it('answers 401 with a Basic challenge without credentials or with wrong ones', async () => {
    const anonymous = await fetch(infoRefs());
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Basic /);
    const wrong = await fetch(infoRefs(), { headers: { Authorization: basic('alice', 'nope') } });
    expect(wrong.status).toBe(401);
    const right = await fetch(infoRefs(), { headers: { Authorization: basic(alice.username, alice.password) } });
    expect(right.status).toBe(200);
    expect(right.headers.get('content-type')).toBe('application/x-git-upload-pack-advertisement');
  });

  it('makes isomorphic-git fail with HTTP 401 when it has no credentials', async () => {
    const error = await git.clone({ fs, http, dir: cloneDir(), url: `${server.url}/private.git` }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'HttpError', data: { statusCode: 401 } });
  });

  it('reports failed credentials to onAuthFailure', async () => {
    const onAuthFailure = jest.fn(() => ({ cancel: true as const }));
    const error = await git
      .clone({ fs, http, dir: cloneDir(), url: `${server.url}/private.git`, onAuth: () => ({ username: 'alice', password: 'nope' }), onAuthFailure })
      .catch((e: unknown) => e);
    expect(onAuthFailure).toHaveBeenCalled();
    expect(error).toBeInstanceOf(Error);
  });

  it('clones with onAuth', async () => {
    const dir = cloneDir();
    const onAuth = jest.fn(() => alice);
    await git.clone({ fs, http, dir, url: `${server.url}/private.git`, onAuth });
    expect(onAuth).toHaveBeenCalled();
    expect(await readFile(join(dir, 'README.md'), 'utf8')).toBe('# Secret\n');
  });

  it('clones with credentials in the URL', async () => {
    const dir = cloneDir();
    const url = `${server.url.replace('://', `://${alice.username}:${encodeURIComponent(alice.password)}@`)}/private.git`;
    await git.clone({ fs, http, dir, url });
    expect(await readFile(join(dir, 'README.md'), 'utf8')).toBe('# Secret\n');
  });

  it('accepts a push from an authenticated client', async () => {
    const dir = cloneDir();
    await git.clone({ fs, http, dir, url: `${server.url}/private.git`, onAuth: () => alice });
    await fs.promises.writeFile(join(dir, 'new.md'), '# New\n');
    await git.add({ fs, dir, filepath: 'new.md' });
    const oid = await git.commit({ fs, dir, message: 'Add page', author: { name: 'Alice', email: 'alice@quire.invalid' } });
    const result = await git.push({ fs, http, dir, onAuth: () => alice });
    expect(result.ok).toBe(true);
    const { stdout } = await execFileAsync('git', ['--git-dir', join(root, 'private.git'), 'rev-parse', 'refs/heads/main']);
    expect(stdout.trim()).toBe(oid);
  });

  it('leaves repositories without an auth entry open', async () => {
    expect((await fetch(`${server.url}/docs.git/info/refs?service=git-upload-pack`)).status).toBe(200);
  });
});

describe('cloneBundle', () => {
  it('serves a fixture bundle as git clone --bare leaves it: HEAD dangling, the branch fetchable by name', async () => {
    const cloned = await cloneBundle(join(FIXTURES, 'noislabs-gitbook-docs.bundle'), root, 'noislabs');
    expect(cloned).toEqual({ path: join(root, 'noislabs.git'), branches: ['main'], head: 'master', headResolves: false });
    const dir = cloneDir();
    await git.clone({ fs, http, dir, url: `${server.url}/noislabs.git`, ref: 'main', depth: 1, singleBranch: true });
    expect(await git.currentBranch({ fs, dir })).toBe('main');
    expect(await readFile(join(dir, 'SUMMARY.md'), 'utf8')).toContain('## ❓ FAQ');
    expect(fs.existsSync(join(dir, '.gitbook/assets/image (1).png'))).toBe(true);
  });
});

describe('startGitHttpServer pushes', () => {
  async function commitInClone(url: string): Promise<{ dir: string; oid: string }> {
    const dir = cloneDir();
    await git.clone({ fs, http, dir, url });
    await fs.promises.writeFile(join(dir, 'pushed.md'), '# Pushed\n');
    await git.add({ fs, dir, filepath: 'pushed.md' });
    const oid = await git.commit({ fs, dir, message: 'Push', author: { name: 'Anon', email: 'anon@quire.invalid' } });
    return { dir, oid };
  }

  it('refuses anonymous pushes by default', async () => {
    await createRepoFromFiles(root, 'open', { 'README.md': '# Open\n' });
    const { dir } = await commitInClone(`${server.url}/open.git`);
    const error = await git.push({ fs, http, dir }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'HttpError', data: { statusCode: 403 } });
  });

  it('accepts anonymous pushes with allowAnonymousPush', async () => {
    const open = await startGitHttpServer({ root, allowAnonymousPush: true });
    try {
      const { dir, oid } = await commitInClone(`${open.url}/open.git`);
      expect((await git.push({ fs, http, dir })).ok).toBe(true);
      const { stdout } = await execFileAsync('git', ['--git-dir', join(root, 'open.git'), 'rev-parse', 'refs/heads/main']);
      expect(stdout.trim()).toBe(oid);
    } finally {
      await open.close();
    }
  });
});
