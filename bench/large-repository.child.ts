/**
 * One import of the large-repository benchmark, in a process of its own so that its peak RSS is
 * the import's: `quire` is Quire's import (the project directory only), `raw` isomorphic-git
 * alone doing the same work (a shallow single-branch fetch, then reading the project
 * directory's files). Prints one JSON line.
 */
import * as fs from 'fs';
import git from 'isomorphic-git';
import http from 'isomorphic-git/http/node';
import { importGitRepository } from '@quire/content/import';

async function main(): Promise<void> {
  const [mode, url, dir, maxBytes] = process.argv.slice(2);
  const started = Date.now();
  let outcome: string;
  try {
    if (mode === 'quire') {
      const result = await importGitRepository({ url, cacheDir: dir, projectDirectory: 'docs', allowedHosts: [new URL(url).host], maxBytes: maxBytes ? Number(maxBytes) : undefined });
      outcome = `${Object.keys(result.files).length} files`;
    } else {
      const gitdir = `${dir}/raw.git`;
      await git.init({ fs, gitdir, bare: true });
      await git.setConfig({ fs, gitdir, path: 'remote.origin.fetch', value: '+refs/*:refs/remotes/origin/*' });
      const { fetchHead } = await git.fetch({ fs, http, gitdir, url, ref: 'main', singleBranch: true, depth: 1, tags: false });
      const cache = {};
      const { tree } = await git.readTree({ fs, gitdir, oid: fetchHead!, filepath: 'docs', cache });
      for (const entry of tree) if (entry.type === 'blob') await git.readBlob({ fs, gitdir, oid: entry.oid, cache });
      outcome = `${tree.length} files`;
    }
  } catch (err: any) {
    outcome = `failed: ${err.code ?? ''} ${err.message}`;
  }
  process.stdout.write(`${JSON.stringify({ mode, ms: Date.now() - started, peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024), outcome })}\n`);
}

void main();
