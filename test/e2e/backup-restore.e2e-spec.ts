import { execFile } from 'child_process';
import { existsSync, mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { promisify } from 'util';
import * as tar from 'tar';
import { loadConfig, QuireConfig } from '@quire/platform/config/config';
import { backup } from '../../apps/cli/src/backup/backup.command';
import { restore } from '../../apps/cli/src/restore/restore.command';
import { check } from '../../apps/cli/src/check/check.command';
import { Runtime } from '@quire/infrastructure/runtime';
import { createTestDatabase, TEST_REDIS_URL, TestDatabase, uniquePrefix } from '../support/databases';
import { startTestQuire, TestQuire } from '../support/quire-app';

const execFileAsync = promisify(execFile);
const REPO_ROOT = join(__dirname, '../..');
const silent = { write: () => true };

interface Seeded {
  token: string;
  orgId: string;
  spaceId: string;
  openChangeRequestId: string;
}

/** Content, a merged history and an open change request, written through the API. */
async function seed(q: TestQuire): Promise<Seeded> {
  const owner = await q.createUser('Backed up');
  const orgId = (await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Backup org' } })).body.id;
  const { data: space } = await owner.api.orgs.createSpace(orgId, { title: 'Backed-up space' } as any);
  for (const title of ['Guide', 'FAQ']) {
    const { data: cr } = await owner.api.spaces.createChangeRequest(space.id, { subject: title });
    await owner.api.spaces.updateChangeRequestContent(space.id, cr.id, { changes: [{ operation: 'insert_page', title, document: { markdown: `# ${title}\n\nAll about ${title.toLowerCase()}.\n` } }] });
    expect((await owner.api.spaces.mergeChangeRequest(space.id, cr.id)).data.result).toBe('merge');
  }
  const { data: open } = await owner.api.spaces.createChangeRequest(space.id, { subject: 'Still open' });
  await owner.api.spaces.updateChangeRequestContent(space.id, open.id, { changes: [{ operation: 'insert_page', title: 'Draft', document: { markdown: '# Draft\n\nNot merged.\n' } }] });
  return { token: owner.token, orgId, spaceId: space.id, openChangeRequestId: open.id };
}

/** The API reads an operator expects to answer the same after a restore. */
async function reads(q: TestQuire, s: Seeded): Promise<Record<string, unknown>> {
  const paths = [
    '/v1/user',
    `/v1/orgs/${s.orgId}`,
    `/v1/orgs/${s.orgId}/spaces`,
    `/v1/spaces/${s.spaceId}`,
    `/v1/spaces/${s.spaceId}/content`,
    `/v1/spaces/${s.spaceId}/content/path/guide?format=markdown`,
    `/v1/spaces/${s.spaceId}/change-requests`,
    `/v1/spaces/${s.spaceId}/change-requests/${s.openChangeRequestId}/content/path/draft?format=markdown`,
    `/v1/spaces/${s.spaceId}/search?query=faq`,
  ];
  const out: Record<string, unknown> = {};
  for (const path of paths) {
    const res = await q.http('GET', path, { token: s.token });
    expect({ path, status: res.status }).toEqual({ path, status: 200 });
    out[path] = res.body;
  }
  return out;
}

/** Starts a server on a restored DATA_DIR (and database). */
async function startOn(dataDir: string, databaseUrl: string | undefined): Promise<TestQuire> {
  return startTestQuire({ dataDir, databaseUrl });
}

describe('backup and restore (e2e)', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });
  /** Closes a server now; the cleanup after all tests then leaves it be. */
  const closeable = (q: TestQuire) => {
    let closed: Promise<void> | undefined;
    const close = () => (closed ??= q.close());
    cleanups.push(close);
    return close;
  };
  const tempDir = (label: string) => {
    const dir = mkdtempSync(join(tmpdir(), `quire-${label}-`));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    return dir;
  };

  it('PostgreSQL: a backup taken while the server runs restores into an empty DATA_DIR and database; check passes and reads answer as before', async () => {
    const q = await startTestQuire();
    const closeOriginal = closeable(q);
    const seeded = await seed(q);
    const before = await reads(q, seeded);
    const archive = join(tempDir('archive'), 'quire.tar.gz');

    // The CLI as an operator runs it, beside the live server.
    const env = { ...process.env, DATABASE_URL: q.config.databaseUrl, REDIS_URL: q.config.redisUrl, QUIRE_QUEUE_PREFIX: q.config.queuePrefix, DATA_DIR: q.config.dataDir, LOG_LEVEL: 'silent' };
    const { stderr } = await execFileAsync(process.execPath, ['-r', '@swc-node/register', 'apps/cli/src/main.ts', 'backup', archive], { env, cwd: REPO_ROOT });
    expect(stderr).toMatch(/backup: \d+ events/);
    const entries: string[] = [];
    await tar.list({ file: archive, onReadEntry: (e) => entries.push(e.path) });
    expect(entries.slice(0, 2)).toEqual(['manifest.json', 'events.ndjson']);
    expect(entries).toContain(`spaces/${seeded.spaceId}.git/HEAD`);
    expect(entries.filter((e) => e.startsWith('git-cache') || e.startsWith('pglite'))).toEqual([]);

    const database: TestDatabase = await createTestDatabase('quire_restore');
    cleanups.push(() => database.drop());
    const dataDir = tempDir('restored');
    const restoredEnv = { ...env, DATABASE_URL: database.url, DATA_DIR: dataDir, QUIRE_QUEUE_PREFIX: uniquePrefix('restored') };
    await execFileAsync(process.execPath, ['-r', '@swc-node/register', 'apps/cli/src/main.ts', 'restore', archive], { env: restoredEnv, cwd: REPO_ROOT });
    const checked = await execFileAsync(process.execPath, ['-r', '@swc-node/register', 'apps/cli/src/main.ts', 'check'], { env: restoredEnv, cwd: REPO_ROOT }).catch((err) => err);
    expect(checked.stdout).toMatch(/no findings/);

    // A second restore into the now-used database and DATA_DIR is refused.
    await expect(execFileAsync(process.execPath, ['-r', '@swc-node/register', 'apps/cli/src/main.ts', 'restore', archive], { env: restoredEnv, cwd: REPO_ROOT })).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/restore only into an empty DATA_DIR/),
    });

    await closeOriginal();
    const restored = await startOn(dataDir, database.url);
    closeable(restored);
    expect(await reads(restored, seeded)).toEqual(before);
    expect(restored.started.runtime.config.installationId).toBe(q.started.runtime.config.installationId);
    // The restored installation takes writes: a merge on top of the restored history.
    const api = restored.client(seeded.token);
    expect((await api.spaces.mergeChangeRequest(seeded.spaceId, seeded.openChangeRequestId)).data.result).toBe('merge');
    expect(restored.violations).toEqual([]);
  }, 180_000);

  it('embedded database: backup beside the server in its process, restore into a new DATA_DIR; check passes and reads answer as before', async () => {
    const q = await startTestQuire({ databaseUrl: undefined, dataDir: tempDir('embedded') });
    const closeOriginal = closeable(q);
    const seeded = await seed(q);
    const before = await reads(q, seeded);
    const archive = join(tempDir('archive'), 'embedded.tar.gz');
    const manifest = await backup(q.started.runtime, archive, silent);
    expect(manifest).toMatchObject({ format: 'quire-backup', database: 'pglite', spaces: [seeded.spaceId], installationId: q.started.runtime.config.installationId });
    expect(existsSync(`${archive}.partial`)).toBe(false);
    await closeOriginal();

    const dataDir = tempDir('embedded-restored');
    const config: QuireConfig = loadConfig({ LOG_LEVEL: 'silent' }, { dataDir, databaseUrl: undefined, redisUrl: TEST_REDIS_URL, queuePrefix: uniquePrefix('embedded-restored') });
    await restore(config, archive, silent);
    const runtime = await Runtime.start(config, { runProjections: false, redis: false });
    try {
      expect((await check(runtime)).findings).toEqual([]);
    } finally {
      await runtime.stop();
    }
    const restored = await startOn(dataDir, undefined);
    closeable(restored);
    expect(await reads(restored, seeded)).toEqual(before);
    expect(restored.violations).toEqual([]);
  }, 180_000);
});
