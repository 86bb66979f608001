/**
 * Large repositories: a generated repository of about 150 MB (incompressible files outside
 * `docs/`, a small GitBook space in `docs/`) served over smart HTTP (git http-backend), imported
 * with its project directory `docs`. Each import runs in a child process and reports its peak
 * RSS; side by side in the same run, isomorphic-git alone doing the same work (shallow fetch,
 * read the project directory) is the baseline. A third run imports with QUIRE_IMPORT_MAX_BYTES
 * below the repository's size: it must fail with `repository_too_large`, early and small.
 *
 * `BENCH_REPO_MB` changes the size (150 by default).
 */
import { execFile } from 'child_process';
import { randomBytes } from 'crypto';
import { promises as fs } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { promisify } from 'util';
import { createRepoFromFiles, startGitHttpServer } from '@quire/test-support/git-http-server';

const execFileAsync = promisify(execFile);
const TARGET_MB = 500;

interface ChildResult {
  mode: string;
  ms: number;
  peakRssMb: number;
  outcome: string;
}

async function child(mode: 'quire' | 'raw', url: string, maxBytes?: number): Promise<ChildResult> {
  const dir = await fs.mkdtemp(join(tmpdir(), `quire-bench-large-${mode}-`));
  try {
    const args = ['-r', '@swc-node/register', join(__dirname, 'large-repository.child.ts'), mode, url, dir, ...(maxBytes ? [String(maxBytes)] : [])];
    const { stdout } = await execFileAsync(process.execPath, args, { cwd: join(__dirname, '..'), maxBuffer: 1 << 20 });
    return JSON.parse(stdout.trim().split('\n').pop()!) as ChildResult;
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

async function directoryBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await fs.readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) total += (await fs.stat(join(entry.parentPath, entry.name))).size;
  }
  return total;
}

export async function run(): Promise<void> {
  const megabytes = Number(process.env.BENCH_REPO_MB ?? 150);
  const root = await fs.mkdtemp(join(tmpdir(), 'quire-bench-large-'));
  try {
    const files: Record<string, string | Uint8Array> = {
      'docs/README.md': '# Handbook\n\nThe docs of a large monorepo.\n',
      'docs/SUMMARY.md': '# Table of contents\n\n* [Handbook](README.md)\n* [Install](install.md)\n* [Usage](usage.md)\n',
      'docs/install.md': '# Install\n\nRun the installer.\n',
      'docs/usage.md': '# Usage\n\nUse it.\n',
    };
    // 1 MB files of random bytes: git cannot compress or deltify them, so the pack is as big as they are.
    for (let i = 0; i < megabytes; i++) files[`vendor/part-${String(i).padStart(4, '0')}.bin`] = randomBytes(1024 * 1024);
    await createRepoFromFiles(root, 'monorepo', files);
    const objectBytes = await directoryBytes(join(root, 'monorepo.git', 'objects'));
    const server = await startGitHttpServer({ root });
    try {
      const url = `${server.url}/monorepo.git`;
      const raw = await child('raw', url);
      const quire = await child('quire', url);
      const limited = await child('quire', url, Math.floor((megabytes * 1024 * 1024) / 3));
      const line = (label: string, r: ChildResult) => `${label.padEnd(44)} ${String(r.ms).padStart(7)} ms  peak RSS ${String(r.peakRssMb).padStart(5)} MB  (${r.outcome})`;
      process.stdout.write(`repository: ${megabytes} MB of incompressible files outside docs/ (objects: ${Math.round(objectBytes / 1024 / 1024)} MB), 4 pages in docs/\n`);
      process.stdout.write(`${line('isomorphic-git alone (fetch + read docs/)', raw)}\n`);
      process.stdout.write(`${line('Quire import (projectDirectory docs)', quire)}\n`);
      process.stdout.write(`${line(`Quire import, limit ${Math.floor(megabytes / 3)} MB`, limited)}\n`);
      process.stdout.write(`peak RSS: Quire / isomorphic-git = ${(quire.peakRssMb / raw.peakRssMb).toFixed(2)}; target < ${TARGET_MB} MB: ${quire.peakRssMb < TARGET_MB ? 'met' : 'NOT met'}\n`);
      process.stdout.write(`over the limit: ${/repository_too_large/.test(limited.outcome) ? 'repository_too_large' : 'NOT refused'}, peak RSS ${limited.peakRssMb} MB\n`);
    } finally {
      await server.close();
    }
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
}
