/**
 * Test helper: serves bare repositories under `root` over git's smart HTTP protocol by
 * running `git http-backend` as a CGI program, the way a real Git host does, so clients
 * (isomorphic-git, the git CLI) meet real protocol behaviour: refs advertisement,
 * shallow fetches, 401 challenges.
 */
import { execFile, spawn } from 'child_process';
import { existsSync, promises as fs } from 'fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'http';
import type { AddressInfo, Socket } from 'net';
import { tmpdir } from 'os';
import { dirname, join, resolve, sep } from 'path';
import { promisify } from 'util';

const execFileAsync = promisify(execFile);

export interface GitHttpServerOptions {
  /** Directory holding the bare repositories (`<name>.git`), see createRepoFromFiles. */
  root: string;
  /** Repositories that require HTTP Basic credentials, by name (with or without `.git`). */
  auth?: { [repoName: string]: { username: string; password: string } };
  /** Accept pushes (git-receive-pack) from anonymous clients too; authenticated clients
   * may always push, as with `git http-backend` behind a real server. */
  allowAnonymousPush?: boolean;
  /** Branches (`refs/heads/...`) whose updates are refused, as a protected branch is: the
   * pack is received and a pre-receive hook declines the update. */
  protectedRefs?: string[];
}

export interface GitHttpServer {
  /** `http://127.0.0.1:<port>`; a repository is at `${url}/<name>.git`. */
  url: string;
  /** HTTP requests received so far, including refused ones. */
  readonly requests: number;
  close(): Promise<void>;
}

/** Environment for every git child: no user or system configuration leaks in. */
function gitEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: tmpdir(),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    ...extra,
  };
}

export async function startGitHttpServer(opts: GitHttpServerOptions): Promise<GitHttpServer> {
  const root = resolve(opts.root);
  let requests = 0;
  const hooksPath = opts.protectedRefs?.length ? await protectedRefsHook(opts.protectedRefs) : undefined;
  const sockets = new Set<Socket>();

  const server = createServer((req, res) => {
    requests++;
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end(String(error));
    });
  });

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const pathInfo = decodeURIComponent(url.pathname);
    if (pathInfo.split('/').includes('..')) {
      res.writeHead(400, { 'Content-Type': 'text/plain' }).end('bad path');
      return;
    }
    const repoName = pathInfo.split('/')[1] ?? '';
    const required = opts.auth?.[repoName] ?? opts.auth?.[repoName.replace(/\.git$/, '')] ?? opts.auth?.[`${repoName}.git`];
    let remoteUser: string | undefined;
    if (required) {
      const given = basicCredentials(req.headers.authorization);
      if (!given || given.username !== required.username || given.password !== required.password) {
        res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="quire-test-git"', 'Content-Type': 'text/plain' });
        res.end('authentication required');
        return;
      }
      remoteUser = given.username;
    }

    const cgiEnv: Record<string, string> = {
      GIT_PROJECT_ROOT: root,
      GIT_HTTP_EXPORT_ALL: '1',
      PATH_INFO: pathInfo,
      QUERY_STRING: url.search.replace(/^\?/, ''),
      REQUEST_METHOD: req.method ?? 'GET',
      CONTENT_TYPE: req.headers['content-type'] ?? '',
      REMOTE_ADDR: req.socket.remoteAddress ?? '127.0.0.1',
      SERVER_PROTOCOL: `HTTP/${req.httpVersion}`,
      GATEWAY_INTERFACE: 'CGI/1.1',
    };
    if (req.headers['content-length']) cgiEnv.CONTENT_LENGTH = req.headers['content-length'];
    // Clients gzip large upload-pack requests; http-backend inflates them itself.
    if (req.headers['content-encoding']) cgiEnv.HTTP_CONTENT_ENCODING = String(req.headers['content-encoding']);
    if (req.headers['git-protocol']) cgiEnv.GIT_PROTOCOL = String(req.headers['git-protocol']);
    if (remoteUser) cgiEnv.REMOTE_USER = remoteUser;
    const config: Array<[string, string]> = [
      ...(opts.allowAnonymousPush ? [['http.receivepack', 'true'] as [string, string]] : []),
      ...(hooksPath ? [['core.hooksPath', hooksPath] as [string, string]] : []),
    ];
    const pushConfig: Record<string, string> = { GIT_CONFIG_COUNT: String(config.length) };
    config.forEach(([key, value], i) => Object.assign(pushConfig, { [`GIT_CONFIG_KEY_${i}`]: key, [`GIT_CONFIG_VALUE_${i}`]: value }));

    const child = spawn('git', ['http-backend'], { env: gitEnv({ ...cgiEnv, ...pushConfig }), stdio: ['pipe', 'pipe', 'pipe'] });
    const exited = new Promise<void>((done, fail) => {
      child.once('error', fail);
      child.once('close', () => done());
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    req.pipe(child.stdin);
    child.stdin.on('error', () => undefined); // the backend may answer before reading the whole body

    await Promise.all([relayCgiResponse(child.stdout, res, () => stderr), exited]);
  };

  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((ready, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => ready());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    get requests() {
      return requests;
    },
    close: () =>
      new Promise<void>((closed, fail) => {
        server.close((error) => (error ? fail(error) : closed()));
        for (const socket of sockets) socket.destroy();
      }).finally(() => (hooksPath ? fs.rm(dirname(hooksPath), { recursive: true, force: true }) : undefined)),
  };
}

/** A hooks folder whose pre-receive hook declines updates of the given refs, as a host does
 * for a protected branch (git reports `pre-receive hook declined` for each). */
async function protectedRefsHook(refs: string[]): Promise<string> {
  const hooks = join(await fs.mkdtemp(join(tmpdir(), 'quire-git-hooks-')), 'hooks');
  await fs.mkdir(hooks);
  const list = refs.map((ref) => `"${ref.replace(/["\\$`]/g, '')}"`).join(' ');
  const script = `#!/bin/sh\nstatus=0\nwhile read old new ref; do\n  for protected in ${list}; do\n    if [ "$ref" = "$protected" ]; then echo "$ref is protected" >&2; status=1; fi\n  done\ndone\nexit $status\n`;
  await fs.writeFile(join(hooks, 'pre-receive'), script, { mode: 0o755 });
  return hooks;
}

function basicCredentials(header: string | undefined): { username: string; password: string } | undefined {
  const match = /^Basic\s+(\S+)$/i.exec(header ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** Reads the CGI header block (`Status:` plus headers, ended by a blank line), then
 * streams the body through. */
function relayCgiResponse(stdout: NodeJS.ReadableStream, res: ServerResponse, stderr: () => string): Promise<void> {
  return new Promise((done) => {
    let head = Buffer.alloc(0);
    let headersDone = false;

    const onData = (chunk: Buffer) => {
      if (headersDone) {
        res.write(chunk);
        return;
      }
      head = Buffer.concat([head, chunk]);
      const crlf = head.indexOf('\r\n\r\n');
      const lf = head.indexOf('\n\n');
      const end = crlf >= 0 && (lf < 0 || crlf < lf) ? crlf : lf;
      if (end < 0) return;
      const separator = end === crlf ? 4 : 2;
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of head.subarray(0, end).toString('latin1').split(/\r?\n/)) {
        const colon = line.indexOf(':');
        if (colon <= 0) continue;
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === 'status') status = parseInt(value, 10) || 200;
        else headers[name] = value;
      }
      res.writeHead(status, headers);
      headersDone = true;
      const rest = head.subarray(end + separator);
      if (rest.length > 0) res.write(rest);
    };

    stdout.on('data', onData);
    stdout.once('end', () => {
      if (headersDone || res.headersSent) res.end();
      else res.writeHead(502, { 'Content-Type': 'text/plain' }).end(`git http-backend failed: ${stderr()}`);
      done();
    });
  });
}

export interface CreateRepoOptions {
  /** Branch to commit to; `main` by default. A new repository's HEAD points at it. */
  branch?: string;
  message?: string;
}

/**
 * Commits `files` to the bare repository `<root>/<name>.git`, creating it if needed. The
 * commit's tree is exactly `files` (a snapshot, not a patch), on top of the branch's
 * previous commit if there is one. Returns the new commit's oid.
 */
export async function createRepoFromFiles(
  root: string,
  name: string,
  files: Record<string, string | Uint8Array>,
  opts: CreateRepoOptions = {},
): Promise<string> {
  const branch = opts.branch ?? 'main';
  const repo = join(resolve(root), `${name}.git`);
  if (!existsSync(repo)) {
    await fs.mkdir(repo, { recursive: true });
    await git(['init', '--quiet', '--bare', `--initial-branch=${branch}`, repo]);
  }

  const scratch = await fs.mkdtemp(join(tmpdir(), 'quire-git-repo-'));
  const workTree = join(scratch, 'tree');
  try {
    for (const [path, content] of Object.entries(files)) {
      const target = resolve(workTree, path);
      if (!target.startsWith(workTree + sep)) throw new Error(`File path ${path} leaves the work tree`);
      await fs.mkdir(dirname(target), { recursive: true });
      await fs.writeFile(target, content);
    }
    await fs.mkdir(workTree, { recursive: true });
    const env = {
      GIT_DIR: repo,
      GIT_WORK_TREE: workTree,
      // Outside the work tree, or `git add` would stage the index itself.
      GIT_INDEX_FILE: join(scratch, 'index'),
      GIT_AUTHOR_NAME: 'Quire Test',
      GIT_AUTHOR_EMAIL: 'test@quire.invalid',
      GIT_COMMITTER_NAME: 'Quire Test',
      GIT_COMMITTER_EMAIL: 'test@quire.invalid',
    };
    await git(['add', '--all', '--force', '.'], { env, cwd: workTree });
    const tree = await git(['write-tree'], { env });
    const parent = await git(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], { env }).catch(() => undefined);
    const commit = await git(['commit-tree', tree, ...(parent ? ['-p', parent] : []), '-m', opts.message ?? 'Update'], { env });
    await git(['update-ref', `refs/heads/${branch}`, commit, ...(parent ? [parent] : [])], { env });
    return commit;
  } finally {
    await fs.rm(scratch, { recursive: true, force: true });
  }
}

export interface ClonedBundle {
  /** Path of the bare repository, `<root>/<name>.git`. */
  path: string;
  /** Branches the bundle carried. */
  branches: string[];
  /** The branch HEAD names. A bundle carries no HEAD, so `git clone --bare` points it at
   * git's default branch name, which may not exist: then `headResolves` is false. */
  head: string;
  headResolves: boolean;
}

/**
 * Bare clone of a fixture bundle into `<root>/<name>.git`, exactly as `git clone --bare`
 * leaves it. HEAD is not repaired: a dangling HEAD is what real hosts serve too (a bare
 * repository where only `main` was pushed, Gogs), and importers must cope with it.
 */
export async function cloneBundle(bundlePath: string, root: string, name: string): Promise<ClonedBundle> {
  const path = join(resolve(root), `${name}.git`);
  await fs.mkdir(resolve(root), { recursive: true });
  await git(['clone', '--quiet', '--bare', resolve(bundlePath), path]);
  const branches = (await git(['for-each-ref', '--format=%(refname:short)', 'refs/heads/'], { env: { GIT_DIR: path } }))
    .split('\n')
    .filter(Boolean);
  if (branches.length === 0) throw new Error(`Bundle ${bundlePath} has no branches`);
  const head = await git(['symbolic-ref', '--short', 'HEAD'], { env: { GIT_DIR: path } });
  return { path, branches, head, headResolves: branches.includes(head) };
}

async function git(args: string[], opts: { env?: Record<string, string>; cwd?: string } = {}): Promise<string> {
  const { stdout } = await execFileAsync('git', args, { env: gitEnv(opts.env), cwd: opts.cwd, maxBuffer: 64 << 20 });
  return stdout.trim();
}

/** An empty bare repository `<root>/<name>.git` (no commit, no branch), as a new repository
 * on a Git host is before its first push. */
export async function createEmptyRepo(root: string, name: string, branch = 'main'): Promise<string> {
  const repo = join(resolve(root), `${name}.git`);
  await fs.mkdir(repo, { recursive: true });
  await git(['init', '--quiet', '--bare', `--initial-branch=${branch}`, repo]);
  return repo;
}
