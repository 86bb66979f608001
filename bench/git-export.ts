import { execFile } from 'child_process';
import { promises as fs, readFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { promisify } from 'util';
import { createEmptyRepo, createRepoFromFiles, startGitHttpServer } from '../test/support/git-http-server';
import { startTestQuire, TestQuire } from '../test/support/quire-app';
import { WorkerProcess } from '../test/chaos/chaos-support';
import { generateRepository } from './import-pipeline';

const execFileAsync = promisify(execFile);

/** Independent runs (each its own repository and space); the median is the figure. */
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

/**
 * Issue 17's figures: a 1,000-page, 50-image space (imported) exported to an empty repository
 * over the local HTTP server, from the HTTP request to the export recorded as completed,
 * against native `git push` of the same revision (the space repository's own commit) to another
 * empty repository of the same server, run side by side; then an export after a one-page edit
 * made through a change request; the peak memory of the worker, which runs as its own process.
 */
export async function run(): Promise<void> {
  const scratch = await fs.mkdtemp(join(tmpdir(), 'quire-bench-git-export-'));
  const root = join(scratch, 'repos');
  const git = await startGitHttpServer({ root, allowAnonymousPush: true });
  const q = await startTestQuire({}, { worker: false });
  const worker = new WorkerProcess(q.config);
  await worker.start();
  const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_TERMINAL_PROMPT: '0' };
  try {
    const owner = await q.createUser('Bench');
    const org = (await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Bench' } })).body.id;
    const runs: Array<{ pushMs: number; exportMs: number; editExportMs: number }> = [];
    const phases: string[] = [];
    const out = [`git export, 1,000 pages + 50 images, to an empty repository over local HTTP (${RUNS} runs, median)`];
    for (let n = 1; n <= RUNS; n++) {
      const files = generateRepository(1000, 50);
      for (const path of Object.keys(files)) if (path.endsWith('.md') && path !== 'SUMMARY.md') files[path] = `${files[path]}\nRun ${n}.\n`;
      files['part-10/page-999.md'] = `${files['part-10/page-999.md']}\nThe quokkazephyr${n} lives here.\n`;
      await createRepoFromFiles(root, `source-${n}`, files, { message: 'Generated' });
      const space = (await q.http('POST', `/v1/orgs/${org}/spaces`, { token: owner.token, body: { title: `Bench ${n}` } })).body.id;
      const { revision } = await request(q, owner.token, space, 'import', { url: `${git.url}/source-${n}.git`, ref: 'refs/heads/main' }, 1);
      // The read models done with the import (search last), so the export's time is its own.
      await searchable(q, owner.token, space, `quokkazephyr${n}`);

      // Baseline: git itself pushes the same commit (its tree is the space's revision) to an empty repository.
      await createEmptyRepo(root, `native-${n}`);
      const spaceRepo = join(q.config.dataDir, 'spaces', `${space}.git`);
      let t = performance.now();
      await execFileAsync('git', ['--git-dir', spaceRepo, 'push', '--quiet', `${git.url}/native-${n}.git`, `${revision}:refs/heads/main`], { env });
      const pushMs = performance.now() - t;

      await createEmptyRepo(root, `export-${n}`);
      const url = `${git.url}/export-${n}.git`;
      t = performance.now();
      const asked = Date.now();
      const answered = await request(q, owner.token, space, 'export', { url, ref: 'refs/heads/main', commitMessage: 'Export' }, 1);
      const exportMs = performance.now() - t;
      phases.push(await exportPhases(q, space, asked, answered.answeredAt, Date.now()));
      const exportedTree = (await execFileAsync('git', ['--git-dir', join(root, `export-${n}.git`), 'rev-parse', 'main^{tree}'])).stdout.trim();
      const nativeTree = (await execFileAsync('git', ['--git-dir', join(root, `native-${n}.git`), 'rev-parse', 'main^{tree}'])).stdout.trim();
      if (exportedTree !== nativeTree) throw new Error(`the export pushed tree ${exportedTree}, git pushed ${nativeTree}`);

      await editPage(q, owner.token, space, 'part-3/page-250', `# Page 250\n\nEdited in Quire, the wombatquasar${n}.\n`);
      await searchable(q, owner.token, space, `wombatquasar${n}`);
      t = performance.now();
      await request(q, owner.token, space, 'export', { url, ref: 'refs/heads/main', commitMessage: 'One page' }, 2);
      const editExportMs = performance.now() - t;
      const changed = (await execFileAsync('git', ['--git-dir', join(root, `export-${n}.git`), 'diff-tree', '-r', '--name-only', 'main^', 'main'])).stdout.trim().split('\n');
      runs.push({ pushMs, exportMs, editExportMs });
      out.push(`  run ${n}: git push ${Math.round(pushMs)} ms; export ${Math.round(exportMs)} ms (ratio ${(exportMs / pushMs).toFixed(2)}); after a one-page edit ${Math.round(editExportMs)} ms (${changed.length} files changed)`);
    }
    const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${worker.pid}/status`, 'utf8'));
    const peakMb = hwm ? Math.round(Number(hwm[1]) / 1024) : NaN;
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const ratio = median(runs.map((r) => r.exportMs / r.pushMs));
    out.push(
      `  baseline (native git push of the same commit): median ${Math.round(median(runs.map((r) => r.pushMs)))} ms`,
      `  export, request -> completed:                  median ${Math.round(median(runs.map((r) => r.exportMs)))} ms`,
      `  export / git push: median ratio   ${ratio.toFixed(2)}  (target <= 2: ${ratio <= 2 ? 'ok' : 'MISSED'})`,
      `  export after a one-page edit      ${Math.round(median(runs.map((r) => r.editExportMs)))} ms  (target < 1000 ms)`,
      `  peak RSS of the worker process    ${peakMb} MB  (target < 500 MB)`,
    );
    out.push(`  where the first export's time went (ms, from the events' times):`, ...phases.map((p) => `    ${p}`));
    for (const line of worker.logs.split('\n')) if (line.includes('git export completed')) out.push(`    worker: ${JSON.stringify((({ outcome, objectsSent, startedMs, readMs, pushedMs, recordedMs, totalMs }) => ({ outcome, objectsSent, startedMs, readMs, pushedMs, recordedMs, totalMs }))(JSON.parse(line)))}`);
    process.stdout.write(out.join('\n') + '\n');
  } finally {
    await worker.stop();
    await q.close();
    await git.close();
    await fs.rm(scratch, { recursive: true, force: true });
  }
}

/** The export's phases: the request answered, its job started, the push done and recorded,
 * the completion visible in the read model. */
async function exportPhases(q: TestQuire, space: string, asked: number, answered: number, seen: number): Promise<string> {
  const events = await q.started.runtime.store.readStream(`space-${space}`);
  const at = (type: string) => Date.parse((events.filter((e) => e.type === type).at(-1)!.data as { at: string }).at);
  const [started, completed] = [at('GitExportStarted'), at('GitExportCompleted')];
  return `request answered ${answered - asked}, then job started ${started - answered}, pushed and recorded ${completed - started}, visible ${seen - completed}`;
}

/** Requests an import or export and waits until the `count`th run of that kind has completed. */
async function request(q: TestQuire, token: string, space: string, kind: 'import' | 'export', body: Record<string, unknown>, count: number) {
  const r = await q.http('POST', `/v1/spaces/${space}/git/${kind}`, { token, body });
  if (r.status !== 204) throw new Error(`${kind} request: ${r.status} ${JSON.stringify(r.body)}`);
  const answeredAt = Date.now();
  for (;;) {
    const runs = await q.http('GET', `/v1/spaces/${space}/git/${kind}s`, { token });
    const done = runs.body.items.filter((i: any) => !['queued', 'running'].includes(i.status));
    if (done.length >= count) {
      if (done[0].status !== 'completed') throw new Error(`${kind} ${done[0].status}: ${JSON.stringify(done[0].error)}`);
      return { ...(done[0] as { revision: string }), answeredAt };
    }
    await new Promise((res) => setTimeout(res, 10));
  }
}

async function searchable(q: TestQuire, token: string, space: string, word: string) {
  for (;;) {
    const found = await q.http('GET', `/v1/spaces/${space}/search?query=${word}`, { token });
    if (found.status !== 200) throw new Error(`search: ${found.status} ${JSON.stringify(found.body)}`);
    if (found.body.items.length > 0) return;
    await new Promise((res) => setTimeout(res, 20));
  }
}

async function editPage(q: TestQuire, token: string, space: string, path: string, markdown: string) {
  const page = (await q.http('GET', `/v1/spaces/${space}/content/path/${path}`, { token })).body;
  const cr = (await q.http('POST', `/v1/spaces/${space}/change-requests`, { token, body: { subject: 'Edit' } })).body;
  const edit = await q.http('POST', `/v1/spaces/${space}/change-requests/${cr.id}/content`, { token, body: { changes: [{ operation: 'update_page', page: page.id, document: { markdown } }] } });
  if (edit.status >= 300) throw new Error(`edit: ${edit.status} ${JSON.stringify(edit.body)}`);
  const merged = await q.http('POST', `/v1/spaces/${space}/change-requests/${cr.id}/merge`, { token });
  if (merged.body.result !== 'merge') throw new Error(`merge: ${merged.status} ${JSON.stringify(merged.body)}`);
}
