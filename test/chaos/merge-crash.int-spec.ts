import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { Job } from 'bullmq';
import { Client } from 'pg';
import { changeRequestStream, RevisionCreated, spaceStream, walkPages } from '@quire/domain';
import { revisionCreatedFor } from '@quire/content/revision';
import { jobIdFor } from '@quire/jobs/job-queues';
import { QUEUES } from '@quire/jobs/queues';
import { loadConfig, QuireConfig } from '@quire/platform/config/config';
import { newId } from '@quire/platform/ids/ids';
import { startApi, StartedApi } from '../../apps/api/src/bootstrap';
import { createTestDatabase, TEST_POSTGRES_URL, TEST_REDIS_URL, TestDatabase, uniquePrefix } from '../support/databases';
import { ADMIN_TOKEN } from '../support/quire-app';
import { until, WorkerProcess } from './chaos-support';

const SECTIONS = 5;
const PAGES_PER_SECTION = 100;

/**
 * Chaos: the worker process dies (SIGKILL) in the middle of a 3-way merge of a change request,
 * after it wrote the merge commit to git and while its append of the merge revision to the
 * space stream is held on a row lock. Another worker process takes the job over once BullMQ
 * declares it stalled; the merge completes once: one merge revision, one ChangeRequestMerged,
 * every event of both streams still there, and both sides' edits in the live content.
 */
describe('chaos: a worker killed in the middle of a merge', () => {
  let database: TestDatabase;
  let dataDir: string;
  let config: QuireConfig;
  let api: StartedApi;
  let holder: Client | undefined;
  let observer: Client | undefined;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('quire_chaos_merge');
    // A backend notices a vanished client only when it talks to it, unless this (PostgreSQL 14+,
    // off by default) makes it poll while it runs a statement. Pinned off for this database so
    // the dead worker's held append behaves the same on every server: see the test.
    const admin = new Client({ connectionString: TEST_POSTGRES_URL });
    await admin.connect();
    try {
      await admin.query(`ALTER DATABASE ${database.name} SET client_connection_check_interval = 0`);
    } finally {
      await admin.end();
    }
    dataDir = mkdtempSync(join(tmpdir(), 'quire-chaos-merge-'));
    config = loadConfig(
      { LOG_LEVEL: 'warn' },
      {
        port: 0,
        host: '127.0.0.1',
        dataDir,
        databaseUrl: database.url,
        redisUrl: TEST_REDIS_URL,
        queuePrefix: uniquePrefix('chaos-merge'),
        adminToken: ADMIN_TOKEN,
        // The merge call gives up waiting (503) well before the stalled job can be taken over.
        commandTimeoutMs: 10_000,
      },
    );
    // The API (and the projections) in this process; the workers in their own processes.
    api = await startApi(config, { runProjections: true, redis: true });
  }, 60_000);
  afterAll(async () => {
    await holder?.end().catch(() => undefined);
    await observer?.end().catch(() => undefined);
    for (const w of workers) await w.kill().catch(() => undefined);
    await api?.close();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  const http = async (method: string, path: string, token: string, body?: unknown) => {
    const res = await fetch(api.url + path, { method, headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };

  /** A live revision of SECTIONS x PAGES_PER_SECTION pages, recorded as one import revision (as bench/merge.ts does). */
  async function seedSpace(spaceId: string, initialRevision: string) {
    const { store, executor, contentStore } = api.runtime;
    const encoder = new TextEncoder();
    const files: Record<string, Uint8Array> = { 'README.md': encoder.encode('# Home\n\nThe handbook.\n') };
    const summary = ['# Table of contents', '', '* [Home](README.md)'];
    for (let s = 1; s <= SECTIONS; s++) {
      summary.push(`* [Section ${s}](section-${s}/README.md)`);
      files[`section-${s}/README.md`] = encoder.encode(`# Section ${s}\n\nAbout section ${s}.\n`);
      for (let p = 1; p < PAGES_PER_SECTION; p++) {
        summary.push(`  * [Page ${s}.${p}](section-${s}/page-${p}.md)`);
        files[`section-${s}/page-${p}.md`] = encoder.encode(pageMarkdown(`Page ${s}.${p}`, 'as imported'));
      }
    }
    files['SUMMARY.md'] = encoder.encode(`${summary.join('\n')}\n`);
    const recorded = await store.readStream(spaceStream(spaceId));
    const previous = recorded.find((e) => e.type === 'RevisionCreated' && (e.data as RevisionCreated['data']).revision === initialRevision)!;
    const revision = await contentStore.writeRevision({ spaceId, parents: [initialRevision], files, message: 'Chaos import', author: { name: 'chaos', email: 'chaos@localhost' }, timestamp: new Date() });
    const { event } = await revisionCreatedFor({
      store: contentStore,
      spaceId,
      revision,
      parents: [initialRevision],
      kind: 'import',
      previous: { pages: (previous.data as RevisionCreated['data']).pages, files: (previous.data as RevisionCreated['data']).files },
      now: new Date(),
      newId,
    });
    const appended = await store.append(
      spaceStream(spaceId),
      [
        { type: 'RevisionCreated', data: event.data },
        { type: 'SpaceRevisionChanged', data: { spaceId, revision } },
      ],
      recorded[recorded.length - 1].streamVersion,
    );
    await executor.waitFor(appended.position, ['RevisionCreated', 'SpaceRevisionChanged']);
    const pages = [...walkPages(event.data.pages)].map(({ page }) => ({ id: page.id, path: page.path, title: page.title }));
    expect(pages).toHaveLength(SECTIONS * PAGES_PER_SECTION + 1);
    return pages.filter((p) => /page-\d+$/.test(p.path));
  }

  /** A change request rewriting the given pages through the content API, in GitBook's batches of at most 50. */
  async function changeRequestEditing(token: string, spaceId: string, pages: Array<{ id: string; title: string }>, note: string): Promise<string> {
    const created = await http('POST', `/v1/spaces/${spaceId}/change-requests`, token, { subject: note });
    expect(created.status).toBe(201);
    for (let i = 0; i < pages.length; i += 50) {
      const changes = pages.slice(i, i + 50).map((page) => ({ operation: 'update_page', page: page.id, document: { markdown: pageMarkdown(page.title, note) } }));
      const edited = await http('POST', `/v1/spaces/${spaceId}/change-requests/${created.body.id}/content`, token, { changes });
      expect(edited.status).toBe(200);
    }
    return created.body.id;
  }

  it('completes the merge exactly once after another worker takes over the stalled job', async () => {
    const user = (await http('POST', '/v1/users', ADMIN_TOKEN, { displayName: 'Chaos', email: `chaos.merge.${Date.now()}@example.com` })).body;
    const token = (await http('POST', `/v1/users/${user.id}/tokens`, ADMIN_TOKEN, {})).body.token;
    const org = (await http('POST', '/v1/orgs', token, { title: 'Chaos' })).body;
    const space = (await http('POST', `/v1/orgs/${org.id}/spaces`, token, { title: 'Crashy merges' })).body;
    const pages = await seedSpace(space.id, space.revision);

    const first = new WorkerProcess(config);
    workers.push(first);
    await first.start();

    // The change request under test rewrites 100 pages; another one, merged first, moves the
    // space meanwhile (10 other pages), so the merge is a real 3-way merge.
    const ours = pages.slice(0, 100);
    const theirs = pages.slice(300, 310);
    const crId = await changeRequestEditing(token, space.id, ours, 'edited by the change request');
    const moverId = await changeRequestEditing(token, space.id, theirs, 'edited on the space meanwhile');
    const moved = await http('POST', `/v1/spaces/${space.id}/change-requests/${moverId}/merge`, token);
    expect(moved).toMatchObject({ status: 200, body: { result: 'merge' } });
    const crHead = (await http('GET', `/v1/spaces/${space.id}/change-requests/${crId}`, token)).body.revision;

    // Hold the space stream's next version: an event appended there in a transaction left open.
    // The worker's merge append (one statement, inserting that same stream version) waits on it
    // until the transaction ends. Appends to other streams (the merge request on the change
    // request's stream) go through.
    holder = new Client({ connectionString: database.url });
    await holder.connect();
    // Watches the database from outside the holder's transaction, whose view of pg_stat_activity
    // is a snapshot kept until it ends.
    observer = new Client({ connectionString: database.url });
    await observer.connect();
    const holderPid = (await holder.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    await holder.query('BEGIN');
    expect(
      (
        await holder.query(
          `INSERT INTO quire_events (stream_id, stream_version, event_id, type, schema_version, data, metadata)
           SELECT $1, max(stream_version) + 1, gen_random_uuid(), 'Held', 1, '{}', '{}' FROM quire_events WHERE stream_id = $1`,
          [spaceStream(space.id)],
        )
      ).rowCount,
    ).toBe(1);

    // The merge call waits for its job; it is not awaited here.
    const merging = http('POST', `/v1/spaces/${space.id}/change-requests/${crId}/merge`, token);
    const requested = await until('the merge to be requested', async () =>
      (await api.runtime.store.readStream(changeRequestStream(crId))).find((e) => e.type === 'ChangeRequestMergeRequested'),
    );
    const jobId = jobIdFor((requested.data as { requestId: string }).requestId);
    const queue = api.runtime.jobs!.queue(QUEUES.changeRequestMerge);
    await until('the merge job to be active', async () => (await Job.fromId(queue, jobId).then((j) => j?.getState())) === 'active', 30_000, 20);

    // The first worker has merged (the merge commit is in git) and sits in its append of the
    // merge revision, blocked by the held row: kill it there.
    const appendPid = await until(
      'the worker to block in its append of the merge revision',
      async () =>
        (
          await observer!.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid)) AND query LIKE '%INSERT INTO quire_events%'`, [holderPid])
        ).rows[0]?.pid,
      30_000,
      20,
    ).catch(async (err) => {
      const activity = (await observer!.query(`SELECT pid, state, wait_event_type, wait_event, pg_blocking_pids(pid) AS blockers, left(query, 120) AS query FROM pg_stat_activity WHERE datname = current_database()`)).rows;
      throw new Error(`${err.message}\n${JSON.stringify(activity, null, 1)}\n--- first worker's log ---\n${first.logs.slice(-3000)}`);
    });
    await first.kill();

    // The dead worker's statement (Parse/Bind/Execute/Sync, sent in one write before it died)
    // is still queued in its backend: released (the held event rolled back), it runs to its end
    // and commits, because the backend learns of the lost client only when it next reads from or
    // writes to it. So the space holds the merge revision while the change request is not marked
    // merged: the merge recorded, its completion cut off.
    await holder.query('ROLLBACK');
    await until("the dead worker's backend to end", async () => (await observer!.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [appendPid])).rowCount === 0, 10_000, 20);
    const cutOff = await api.runtime.store.readStream(spaceStream(space.id));
    expect(cutOff.slice(-2).map((e) => e.type)).toEqual(['RevisionCreated', 'SpaceRevisionChanged']);
    expect(cutOff[cutOff.length - 2].data).toMatchObject({ kind: 'merge', mergedFrom: crId });
    expect((await api.runtime.store.readStream(changeRequestStream(crId))).map((e) => e.type)).not.toContain('ChangeRequestMerged');

    // The job's lock outlives the worker (lockDuration, 60 s), and the stalled-job check runs at
    // most once per stalledInterval (30 s) across workers: expire both now rather than wait.
    // The new worker's first check then marks the job, its next one hands it over.
    const redis = api.runtime.redis!;
    expect(await redis.del(`${api.runtime.config.queuePrefix}:${QUEUES.changeRequestMerge}:${jobId}:lock`)).toBe(1);
    await redis.del(`${api.runtime.config.queuePrefix}:${QUEUES.changeRequestMerge}:stalled-check`);
    const second = new WorkerProcess(config);
    workers.push(second);
    await second.start();

    // The merge call gives up waiting long before the take-over: 503 with GitBook's error body, the job going on.
    const answered = await merging;
    expect(answered.status).toBe(503);
    expect(answered.body).toEqual({ error: { code: 503, message: expect.stringMatching(/still running/) } });

    const job = await until(
      'the merge job to complete',
      async () => {
        const j = await Job.fromId(queue, jobId);
        return j?.finishedOn ? j : undefined;
      },
      60_000,
      250,
    ).catch(async (err) => {
      const stuck = await Job.fromId(queue, jobId);
      throw new Error(`${err.message}\njob ${jobId}: ${await stuck?.getState()}, stalled ${stuck?.stalledCounter}\n--- second worker's log ---\n${second.logs.slice(-2000)}`);
    });
    expect(await job.getState()).toBe('completed');
    expect(job.stalledCounter).toBe(1);
    expect(job.returnvalue).toMatchObject({ ok: true, result: 'merge' });
    // The worker logs the completion when BullMQ tells it, a moment after the job's state moved.
    await until('the second worker to log the completion', async () =>
      logLines(second.logs).some((l: any) => l.msg === 'job completed' && l.queue === QUEUES.changeRequestMerge && l.jobId === jobId), 10_000, 50);

    // Asking again answers the merge that happened, without merging again.
    const again = await http('POST', `/v1/spaces/${space.id}/change-requests/${crId}/merge`, token);
    expect(again).toEqual({ status: 200, body: { revision: job.returnvalue.revision, result: 'merge' } });

    // Once: one merge request, one merge revision, one move of the live revision, one completion.
    const crEvents = await api.runtime.store.readStream(changeRequestStream(crId));
    expect(crEvents.map((e) => e.type)).toEqual([
      'ChangeRequestCreated',
      'RevisionCreated',
      'RevisionCreated',
      'ChangeRequestMergeRequested',
      'ChangeRequestMerged',
    ]);
    expect(crEvents.map((e) => e.streamVersion)).toEqual(crEvents.map((_, i) => i + 1));
    const mergedEvent = crEvents[crEvents.length - 1].data as { revisionMerged: string; revision: string; requestId: string };
    expect(mergedEvent).toMatchObject({ revision: crHead, requestId: (requested.data as { requestId: string }).requestId });

    const spaceEvents = await api.runtime.store.readStream(spaceStream(space.id));
    expect(spaceEvents.map((e) => e.type)).toEqual([
      // The space's creation, the seeded import, the two change requests' numbers ...
      'SpaceCreated',
      'SpaceUserPermissionSet',
      'RevisionCreated',
      'SpaceRevisionChanged',
      'RevisionCreated',
      'SpaceRevisionChanged',
      'ChangeRequestNumberAllocated',
      'ChangeRequestNumberAllocated',
      // ... the other change request's merge, then this one's, once, although two workers ran it.
      'RevisionCreated',
      'SpaceRevisionChanged',
      'RevisionCreated',
      'SpaceRevisionChanged',
    ]);
    expect(spaceEvents.map((e) => e.streamVersion)).toEqual(spaceEvents.map((_, i) => i + 1));
    const merges = spaceEvents.filter((e) => e.type === 'RevisionCreated' && (e.data as RevisionCreated['data']).mergedFrom === crId);
    expect(merges).toHaveLength(1);
    const mergeRevision = merges[0].data as RevisionCreated['data'];
    const moverRevision = (spaceEvents.find((e) => e.type === 'RevisionCreated' && (e.data as RevisionCreated['data']).mergedFrom === moverId)!.data as RevisionCreated['data']).revision;
    expect(mergeRevision).toMatchObject({ kind: 'merge', parents: [moverRevision, crHead] });
    expect(mergeRevision.revision).toBe(mergedEvent.revisionMerged);
    expect(job.returnvalue.revision).toBe(mergeRevision.revision);
    expect(spaceEvents[spaceEvents.length - 1].data).toMatchObject({ revision: mergeRevision.revision });
    // The space stream is exactly as the cut-off merge left it: the take-over appended nothing there.
    expect(spaceEvents.map((e) => e.id)).toEqual(cutOff.map((e) => e.id));

    // The live content is the merge: both sides' edits, untouched pages as they were.
    const live = (await http('GET', `/v1/spaces/${space.id}/content`, token)).body;
    expect(live.id).toBe(mergeRevision.revision);
    const markdown = async (path: string) => (await http('GET', `/v1/spaces/${space.id}/content/path/${path}?format=markdown`, token)).body.markdown as string;
    for (const page of [ours[0], ours[49], ours[50], ours[99]]) expect(await markdown(page.path)).toContain('edited by the change request');
    for (const page of [theirs[0], theirs[9]]) expect(await markdown(page.path)).toContain('edited on the space meanwhile');
    expect(await markdown(pages[200].path)).toContain('as imported');

    const cr = (await http('GET', `/v1/spaces/${space.id}/change-requests/${crId}`, token)).body;
    expect(cr).toMatchObject({ status: 'merged', revision: crHead });
  }, 120_000);
});

/** The JSON lines of a worker's log. */
function logLines(output: string): Array<Record<string, unknown>> {
  return output.split('\n').flatMap((line) => {
    try {
      return [JSON.parse(line)];
    } catch {
      return [];
    }
  });
}

function pageMarkdown(title: string, note: string): string {
  return `# ${title}\n\nThis page was ${note}.\n\n## Steps\n\n1. Open the settings.\n2. Choose *Integrations*.\n3. Save.\n\n\`\`\`bash\nquire sync --space docs\n\`\`\`\n`;
}
