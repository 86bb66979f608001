import { execFile } from 'child_process';
import { rmSync } from 'fs';
import { join } from 'path';
import { promisify } from 'util';
import { backfillRefs } from '../../apps/cli/src/refs/refs.command';
import { startTestQuire, TestQuire } from '../support/quire-app';

const execFileAsync = promisify(execFile);
const git = async (gitdir: string, ...args: string[]) => (await execFileAsync('git', ['--git-dir', gitdir, ...args])).stdout.trim();

/**
 * `npm run cli -- refs` on a space repository that has lost (or never had) its refs: it writes
 * back exactly the refs the write path keeps (checked with git itself), and running it again
 * changes nothing.
 */
describe('refs backfill (e2e)', () => {
  let q: TestQuire;
  beforeAll(async () => {
    q = await startTestQuire();
  });
  afterAll(async () => {
    await q?.close();
  });

  it('restores refs/heads/main at the live revision and a tip per head, so git reaches every revision', async () => {
    const owner = await q.createUser('Refs owner');
    const orgId = (await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Refs org' } })).body.id;
    const { data: space } = await owner.api.orgs.createSpace(orgId, { title: 'Old repository' } as any);
    const edit = async (subject: string, markdown: string, merge: boolean) => {
      const { data: cr } = await owner.api.spaces.createChangeRequest(space.id, { subject });
      const res = await q.http('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
        token: owner.token,
        body: { changes: [{ operation: 'insert_page', title: subject, document: { markdown } }] },
      });
      expect(res.status).toBe(200);
      if (merge) expect((await q.http('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`, { token: owner.token })).status).toBe(200);
    };
    await edit('First', '# First\n\nMerged.\n', true);
    await edit('Second', '# Second\n\nMerged too.\n', true);
    await edit('Open', '# Open\n\nStill a draft.\n', false);

    const gitdir = q.started.runtime.contentStore.repositoryPath(space.id);
    const refs = () => git(gitdir, 'for-each-ref', '--format=%(refname) %(objectname)');
    const written = await refs();
    const live = (await owner.api.spaces.getSpaceById(space.id)).data.revision;
    expect(written).toContain(`refs/heads/main ${live}`);
    const revisions = (await q.started.runtime.db.query<{ id: string }>(`SELECT id FROM rm_revisions WHERE space_id = $1`, [space.id])).rows.map((r) => r.id);
    expect(revisions.length).toBeGreaterThanOrEqual(5);

    // A repository from before refs were kept.
    rmSync(join(gitdir, 'refs', 'heads', 'main'));
    rmSync(join(gitdir, 'refs', 'quire'), { recursive: true });
    expect(await refs()).toBe('');

    const out: string[] = [];
    const result = await backfillRefs(q.started.runtime, { write: (s: string) => out.push(s) } as any);
    expect(result.missing).toEqual([]);
    expect(result.revisions).toBeGreaterThanOrEqual(revisions.length);
    expect(out.join('')).toMatch(/refs: \d+ revisions in \d+ space repositories; refs\/heads\/main set in \d+/);
    // The same refs as the write path left, and every revision reachable from them.
    expect(await refs()).toBe(written);
    expect(await git(gitdir, 'rev-parse', 'main')).toBe(live);
    const reachable = new Set((await git(gitdir, 'rev-list', '--all')).split('\n'));
    expect(revisions.filter((id) => !reachable.has(id))).toEqual([]);

    // Again: nothing changes.
    await backfillRefs(q.started.runtime, { write: () => true } as any);
    expect(await refs()).toBe(written);
  });
});
