import { execFile } from 'child_process';
import { readFileSync, rmSync, writeFileSync } from 'fs';
import { join } from 'path';
import { promisify } from 'util';
import { startTestQuire, TestQuire } from '../support/quire-app';

const execFileAsync = promisify(execFile);
const REPO_ROOT = join(__dirname, '../..');

/**
 * `npm run cli -- check` beside a live server on PostgreSQL: a healthy installation passes (exit 0);
 * a blob deleted from a space repository and a tampered read-model row are each named (exit 1).
 */
describe('integrity check (e2e)', () => {
  let q: TestQuire;
  let spaceId: string;

  beforeAll(async () => {
    q = await startTestQuire();
    const owner = await q.createUser('Checked');
    const orgId = (await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Checked org' } })).body.id;
    const { data: space } = await owner.api.orgs.createSpace(orgId, { title: 'Checked space' } as any);
    spaceId = space.id;
    for (const title of ['Guide', 'FAQ']) {
      const { data: cr } = await owner.api.spaces.createChangeRequest(space.id, { subject: title });
      await owner.api.spaces.updateChangeRequestContent(space.id, cr.id, { changes: [{ operation: 'insert_page', title, document: { markdown: `# ${title}\n\nAbout ${title}.\n` } }] });
      expect((await owner.api.spaces.mergeChangeRequest(space.id, cr.id)).data.result).toBe('merge');
    }
    // One change request left open: its revision lives only on its own ref.
    const { data: open } = await owner.api.spaces.createChangeRequest(space.id, { subject: 'Draft' });
    await owner.api.spaces.updateChangeRequestContent(space.id, open.id, { changes: [{ operation: 'insert_page', title: 'Draft', document: { markdown: '# Draft\n\nNot yet.\n' } }] });
  });
  afterAll(async () => {
    await q?.close();
  });

  /** The CLI as an operator runs it, as its own process beside the server. */
  async function cliCheck(): Promise<{ code: number; stdout: string }> {
    const env = { ...process.env, DATABASE_URL: q.config.databaseUrl, REDIS_URL: q.config.redisUrl, QUIRE_QUEUE_PREFIX: q.config.queuePrefix, DATA_DIR: q.config.dataDir, LOG_LEVEL: 'silent' };
    try {
      const { stdout } = await execFileAsync(process.execPath, ['-r', '@swc-node/register', 'apps/cli/src/main.ts', 'check'], { env, cwd: REPO_ROOT });
      return { code: 0, stdout };
    } catch (err: any) {
      return { code: err.code, stdout: err.stdout + err.stderr };
    }
  }

  it('passes on a healthy installation, beside the running server', async () => {
    const { code, stdout } = await cliCheck();
    expect(stdout).not.toContain('FINDING');
    expect(stdout).toMatch(/\d+ events, [1-9]\d* commits and [1-9]\d* blobs checked, [1-9]\d* read-model tables compared with a replay: no findings/);
    expect(code).toBe(0);
  }, 60_000);

  it('names a blob missing from a space repository', async () => {
    const gitdir = q.started.runtime.contentStore.repositoryPath(spaceId);
    const { stdout: tree } = await execFileAsync('git', ['--git-dir', gitdir, 'ls-tree', '-r', 'refs/heads/main']);
    const line = tree.split('\n').find((l) => l.endsWith('\tfaq.md') || /\tfaq(\/README)?\.md$/i.test(l));
    expect(line).toBeDefined();
    const blob = line!.split(/\s+/)[2];
    const object = join(gitdir, 'objects', blob.slice(0, 2), blob.slice(2));
    const bytes = readFileSync(object);
    rmSync(object);
    try {
      const { code, stdout } = await cliCheck();
      expect(stdout).toContain(`FINDING space ${spaceId}: blob ${blob} is missing from the repository (named by RevisionCreated`);
      expect(code).toBe(1);
    } finally {
      writeFileSync(object, bytes);
    }
  }, 60_000);

  it('names a read-model table whose row was tampered with', async () => {
    await q.started.runtime.db.query(`UPDATE rm_spaces SET title = 'Tampered' WHERE id = $1`, [spaceId]);
    const { code, stdout } = await cliCheck();
    expect(stdout).toContain('FINDING read model spaces, table rm_spaces: differs from a replay of the events (1 row(s) only in the live table, 1 only in the replay)');
    expect(stdout.match(/FINDING/g)).toHaveLength(1);
    expect(code).toBe(1);
  }, 60_000);
});
