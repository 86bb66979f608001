import { ChildProcess, spawn, spawnSync } from 'child_process';
import { cpSync, mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { PgliteDb } from './pglite-db';

const REPO_ROOT = join(__dirname, '../../../..');

/** A process that opens DATA_DIR/pglite and keeps it open, as a running server does. */
function holdDatabase(dir: string): Promise<ChildProcess> {
  const script = `
    const { PgliteDb } = require('./libs/platform/src/db/pglite-db.ts');
    PgliteDb.open(${JSON.stringify(dir)}).then(async (db) => { await db.query('CREATE TABLE IF NOT EXISTS t (x int)'); process.stdout.write('ready\\n'); setInterval(() => undefined, 1000); },
      (err) => { process.stderr.write(err.message); process.exit(3); });`;
  const child = spawn(process.execPath, ['-r', '@swc-node/register', '-e', script], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('ready')) resolve(child);
    });
    child.stderr!.on('data', (d) => (out += d));
    child.once('exit', () => reject(new Error(`holder exited: ${out}`)));
  });
}

describe('embedded PGlite: one process per directory', () => {
  let dataDir: string;
  let holder: ChildProcess | undefined;
  /**
   * A database directory created once (PGlite's first open runs initdb, many seconds of it) and
   * copied for each test, closed and unlocked: the tests are about who may open it, not its creation.
   */
  let template: string;

  // initdb in WebAssembly: 10-20 s on a quiet host, past the 60 s default on one loaded at 10 (seen
  // in a full test run beside two benchmarks).
  beforeAll(async () => {
    template = join(mkdtempSync(join(tmpdir(), 'quire-lock-template-')), 'pglite');
    await (await PgliteDb.open(template)).close();
  }, 180_000);
  afterAll(() => {
    rmSync(join(template, '..'), { recursive: true, force: true });
  });
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'quire-lock-'));
    cpSync(template, join(dataDir, 'pglite'), { recursive: true });
  });
  afterEach(() => {
    holder?.kill('SIGKILL');
    // Unset when the template could not be made: the tests failed on that already.
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses the CLI with one line naming the holder while a server process has the database open', async () => {
    holder = await holdDatabase(join(dataDir, 'pglite'));
    const cli = spawnSync(process.execPath, ['-r', '@swc-node/register', 'apps/cli/src/main.ts', 'replay', 'identity'], {
      cwd: REPO_ROOT,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(cli.status).not.toBe(0);
    expect(cli.stderr.trim().split('\n')).toEqual([
      `quire cli: ${join(dataDir, 'pglite')} is in use by another Quire process (pid ${holder.pid}); stop it or set DATABASE_URL`,
    ]);
  });

  it('refuses a second opener in this process too, and frees the directory on close', async () => {
    const dir = join(dataDir, 'pglite');
    const first = await PgliteDb.open(dir);
    await expect(PgliteDb.open(dir)).rejects.toThrow(`in use by another Quire process (pid ${process.pid})`);
    await first.close();
    const second = await PgliteDb.open(dir);
    await second.close();
  });

  it('takes over at once a lock left by a process that was killed', async () => {
    const dir = join(dataDir, 'pglite');
    holder = await holdDatabase(dir);
    const exited = new Promise((r) => holder!.once('exit', r));
    holder.kill('SIGKILL');
    await exited;
    const db = await PgliteDb.open(dir);
    expect((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM t')).rows[0].n).toBe(0);
    await db.close();
  });
});
