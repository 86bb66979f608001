import { execFile } from 'child_process';
import { promises as fs } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { promisify } from 'util';
import MarkdownIt from 'markdown-it';
import { createRepoFromFiles, startGitHttpServer } from '../test/support/git-http-server';
import { startTestQuire } from '../test/support/quire-app';
import { generateRepository } from './import-pipeline';

const execFileAsync = promisify(execFile);

/**
 * Issue 7's figure: a 1,000-page, 50-image repository imported over the local HTTP server,
 * from the HTTP request to live content, against `git clone` of the same repository plus a
 * markdown-it parse of its pages by a plain script. Also the re-import after a one-page
 * change, and the peak RSS of the process (API + worker + projector in one) during imports.
 */
export async function run(): Promise<void> {
  const scratch = await fs.mkdtemp(join(tmpdir(), 'quire-bench-git-import-'));
  const root = join(scratch, 'repos');
  const files = generateRepository(1000, 50);
  await createRepoFromFiles(root, 'bench', files, { message: 'Generated' });
  const git = await startGitHttpServer({ root });
  const q = await startTestQuire();
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  try {
    const url = `${git.url}/bench.git`;
    const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_TERMINAL_PROMPT: '0' };
    let t = performance.now();
    await execFileAsync('git', ['clone', '--quiet', url, join(scratch, 'clone')], { env });
    const cloneMs = performance.now() - t;
    const md = new MarkdownIt({ html: true });
    t = performance.now();
    for (const [path, text] of Object.entries(files)) if (path.endsWith('.md')) md.parse(String(text), {});
    const parseMs = performance.now() - t;

    const owner = await q.createUser('Bench');
    const org = (await q.http('POST', '/v1/orgs', { token: owner.token, body: { title: 'Bench' } })).body.id;
    const space = (await q.http('POST', `/v1/orgs/${org}/spaces`, { token: owner.token, body: { title: 'Bench' } })).body.id;
    const importOnce = async (count: number) => {
      const started = performance.now();
      const r = await q.http('POST', `/v1/spaces/${space}/git/import`, { token: owner.token, body: { url, ref: 'refs/heads/main' } });
      if (r.status !== 204) throw new Error(`import request: ${r.status} ${JSON.stringify(r.body)}`);
      for (;;) {
        const runs = await q.http('GET', `/v1/spaces/${space}/git/imports`, { token: owner.token });
        const done = runs.body.items.filter((i: any) => !['queued', 'running'].includes(i.status));
        if (done.length >= count) {
          if (done[0].status !== 'completed') throw new Error(`import ${done[0].status}: ${JSON.stringify(done[0].error)}`);
          break;
        }
        await new Promise((res) => setTimeout(res, 20));
      }
      // Live: the new revision is what the space serves.
      const page = await q.http('GET', `/v1/spaces/${space}/content/path/part-3/page-250?format=markdown`, { token: owner.token });
      if (page.status !== 200) throw new Error(`page not live: ${page.status}`);
      return { ms: performance.now() - started, markdown: page.body.markdown as string };
    };
    const first = await importOnce(1);
    files['part-3/page-250.md'] = `${files['part-3/page-250.md']}\nOne more line.\n`;
    await createRepoFromFiles(root, 'bench', files, { message: 'One page changed' });
    const second = await importOnce(2);
    if (!second.markdown.includes('One more line.')) throw new Error('the re-import did not go live');
    clearInterval(sampler);
    const baseline = cloneMs + parseMs;
    const out = [
      `git import, 1,000 pages + 50 images, over local HTTP`,
      `  baseline: git clone ${Math.round(cloneMs)} ms + markdown-it parse ${Math.round(parseMs)} ms = ${Math.round(baseline)} ms`,
      `  import, request -> live            ${Math.round(first.ms)} ms  (ratio ${(first.ms / baseline).toFixed(2)}, target <= 3)`,
      `  re-import after a one-page change  ${Math.round(second.ms)} ms  (target < 2000 ms)`,
      `  peak RSS of the all-in-one process ${Math.round(peak / 2 ** 20)} MB  (target < 500 MB)`,
    ];
    process.stdout.write(out.join('\n') + '\n');
  } finally {
    clearInterval(sampler);
    await q.close();
    await git.close();
    await fs.rm(scratch, { recursive: true, force: true });
  }
}
