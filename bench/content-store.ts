/**
 * `npm run bench -- content-store`: writing one revision of 1,000 pages (3.1 MB) and 50 images
 * (1.5 MB) into a fresh space repository, best of five, against the < 1 s target; then
 * listing it cold and with the tree cache, and a follow-up revision changing one page.
 */
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { ContentStore } from '@quire/content/store';
import type { RevisionFileInput } from '@quire/content/store/write-revision';

const RUNS = 5;
const TARGET_MS = 1000;
const author = { name: 'Bench', email: 'bench@quire.invalid' };

function pngLike(seed: number, size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  let x = seed + 1;
  for (let i = 0; i < size; i++) bytes[i] = (x = (x * 1103515245 + 12345) & 0x7fffffff) >> 16;
  return bytes;
}

export async function run(): Promise<Record<string, number>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'quire-bench-store-'));
  try {
    const store = new ContentStore({ dataDir });
    const encode = (text: string) => new TextEncoder().encode(text);
    const files: Record<string, RevisionFileInput> = { 'README.md': encode('# Home\n'), 'SUMMARY.md': encode('# Table of contents\n') };
    for (let i = 0; i < 1000; i++) files[`part-${i % 10}/chapter-${i % 37}/page-${i}.md`] = encode(`# Page ${i}\n\n${'Some documentation text. '.repeat(120)}\n`);
    for (let i = 0; i < 50; i++) files[`.gitbook/assets/image-${i}.png`] = pngLike(i, 30_000);
    const write = (spaceId: string, input: Record<string, RevisionFileInput>, parents: string[] = []) =>
      store.writeRevision({ spaceId, files: input, parents, author, timestamp: new Date(), message: 'bench' });

    const runs: number[] = [];
    let space = '';
    let revision = '';
    for (let i = 0; i < RUNS; i++) {
      space = `bench${i}`;
      await store.initSpaceRepo(space);
      const started = performance.now();
      revision = await write(space, files);
      runs.push(performance.now() - started);
    }
    const best = Math.min(...runs);
    const listStarted = performance.now();
    const listed = await store.readRevisionFiles(space, revision);
    const cold = performance.now() - listStarted;
    const next: Record<string, RevisionFileInput> = Object.fromEntries(listed.map((f) => [f.path, { oid: f.oid }]));
    next['part-3/chapter-3/page-3.md'] = encode('# Page 3, edited\n');
    const nextStarted = performance.now();
    await write(space, next, [revision]);
    const followUp = performance.now() - nextStarted;

    const line = (label: string, ms: number, target?: string) => process.stdout.write(`${label.padEnd(64)} ${ms.toFixed(0).padStart(6)} ms${target ?? ''}\n`);
    process.stdout.write(`  runs: ${runs.map((ms) => ms.toFixed(0)).join(', ')} ms\n`);
    line('writeRevision, 1,000 pages + 50 images (best of 5)', best, `  (target < ${TARGET_MS}: ${best < TARGET_MS ? 'ok' : 'MISSED'})`);
    line('readRevisionFiles of those 1,052 files (cold)', cold);
    line('writeRevision of one changed page among 1,052 files', followUp);
    return { best, cold, followUp };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
