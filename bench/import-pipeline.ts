/**
 * Git import benchmark: a generated GitBook repository of 1,000 pages and 50 images,
 * served over smart HTTP (git http-backend), imported with importGitRepository and
 * compared with the git CLI and a bare markdown-it parse of the same pages.
 *
 * Prints: `git clone` wall time, markdown-it parse time, import time (first, then after a
 * one-page change, then unchanged), and the process's peak RSS. The figures swing with the
 * machine's load: run it a few times.
 */
import { execFile } from 'child_process';
import { promises as fs } from 'fs';
import MarkdownIt from 'markdown-it';
import { tmpdir } from 'os';
import { join } from 'path';
import { promisify } from 'util';
import { importGitRepository } from '@quire/content/import';
import { pngBytes } from '@quire/content/import/testing/png';
import { createRepoFromFiles, startGitHttpServer } from '@quire/test-support/git-http-server';

const execFileAsync = promisify(execFile);

export interface ImportPipelineBenchOptions {
  pages?: number;
  images?: number;
}

export interface ImportPipelineBenchResult {
  pages: number;
  images: number;
  repositoryBytes: number;
  gitCloneMs: number;
  gitCloneShallowMs: number;
  /** First pass (cold JIT, like an import in a fresh worker), then a second pass. */
  markdownItParseMs: number;
  markdownItParseWarmMs: number;
  importFirstMs: number;
  importAfterOneChangeMs: number;
  importUnchangedMs: number;
  rssBeforeMb: number;
  peakRssMb: number;
}

/** A page of realistic size (~3 KB): headings, lists, a table, code, a hint, an image. */
function pageMarkdown(i: number, images: number): string {
  const image = i % 20 === 0 ? `\n![Figure ${i}](../.gitbook/assets/figure-${i % images}.png)\n` : '';
  return [
    '---',
    `description: Page ${i} of the generated benchmark space.`,
    '---',
    '',
    `# Page ${i}`,
    '',
    `This page explains **feature ${i}** and links to [the next page](page-${i + 1}.md).`,
    image,
    '## Overview',
    '',
    'Lorem ipsum dolor sit amet, consectetur adipiscing elit. Sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. '.repeat(6),
    '',
    '* First point with `inline code`',
    '* Second point with a [link](https://example.com)',
    '  * Nested point',
    '',
    '{% hint style="info" %}',
    'A hint block, as GitBook writes it.',
    '{% endhint %}',
    '',
    '| Option | Default | Meaning |',
    '| ------ | ------- | ------- |',
    `| size | ${i} | How big it is |`,
    '| mode | fast | How it runs |',
    '',
    '```js',
    `const value = compute(${i});`,
    'console.log(value);',
    '```',
    '',
    '## Details',
    '',
    'Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat. '.repeat(6),
    '',
  ].join('\n');
}

export function generateRepository(pages: number, images: number): Record<string, string | Uint8Array> {
  const files: Record<string, string | Uint8Array> = {};
  const summary = ['# Table of contents', '', '* [Welcome](README.md)', ''];
  files['README.md'] = '# Welcome\n\nThe generated benchmark space.\n\n![Logo](.gitbook/assets/figure-0.png)\n';
  const groups = 10;
  const perGroup = Math.ceil(pages / groups);
  for (let g = 0; g < groups; g++) {
    summary.push(`## Part ${g + 1}`, '');
    for (let i = g * perGroup; i < Math.min(pages, (g + 1) * perGroup); i++) {
      // Every tenth page has children: the next pages, one level down.
      const nested = i % 10 !== 0 && i % 10 <= 3;
      summary.push(`${nested ? '  ' : ''}* [Page ${i}](part-${g + 1}/page-${i}.md)`);
      files[`part-${g + 1}/page-${i}.md`] = pageMarkdown(i, images);
    }
    summary.push('');
  }
  files['SUMMARY.md'] = summary.join('\n');
  for (let i = 0; i < images; i++) files[`.gitbook/assets/figure-${i}.png`] = pngBytes(320 + i, 200, i, true);
  return files;
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

export async function run(opts: ImportPipelineBenchOptions = {}): Promise<ImportPipelineBenchResult> {
  const pageCount = opts.pages ?? 1000;
  const imageCount = opts.images ?? 50;
  const scratch = await fs.mkdtemp(join(tmpdir(), 'quire-bench-import-'));
  const root = join(scratch, 'repos');
  const files = generateRepository(pageCount, imageCount);
  const repositoryBytes = Object.values(files).reduce((sum, f) => sum + (typeof f === 'string' ? Buffer.byteLength(f) : f.byteLength), 0);
  await createRepoFromFiles(root, 'bench', files, { message: 'Generated' });
  const server = await startGitHttpServer({ root });
  const url = `${server.url}/bench.git`;

  // Peak RSS during the imports, sampled; process.resourceUsage().maxRSS covers the
  // whole process life and is reported too.
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 5);
  const rssBefore = process.memoryUsage().rss;

  try {
    const gitEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_TERMINAL_PROMPT: '0' };
    const clone = await timed(() => execFileAsync('git', ['clone', '--quiet', url, join(scratch, 'clone')], { env: gitEnv }));
    const shallow = await timed(() =>
      execFileAsync('git', ['clone', '--quiet', '--depth', '1', '--bare', url, join(scratch, 'clone-shallow.git')], { env: gitEnv }),
    );

    const md = new MarkdownIt({ html: true, linkify: true });
    const pageTexts = Object.entries(files)
      .filter(([path]) => path.endsWith('.md'))
      .map(([, text]) => text as string);
    const parseAll = async () => {
      for (const text of pageTexts) md.parse(text, {});
    };
    const parse = await timed(parseAll);
    const parseWarm = await timed(parseAll);

    const cacheDir = join(scratch, 'cache');
    const importOnce = () => importGitRepository({ url, ref: 'refs/heads/main', cacheDir, allowedHosts: ['127.0.0.1'] });
    const first = await timed(importOnce);
    if (Object.keys(first.value.files).length < pageCount + 1) throw new Error('The import lost pages');

    files['part-3/page-250.md'] = `${files['part-3/page-250.md']}\nOne more line.\n`;
    await createRepoFromFiles(root, 'bench', files, { message: 'One page changed' });
    const second = await timed(importOnce);
    const unchanged = await timed(importOnce);

    clearInterval(sampler);
    const result: ImportPipelineBenchResult = {
      pages: pageCount,
      images: imageCount,
      repositoryBytes,
      gitCloneMs: Math.round(clone.ms),
      gitCloneShallowMs: Math.round(shallow.ms),
      markdownItParseMs: Math.round(parse.ms),
      markdownItParseWarmMs: Math.round(parseWarm.ms),
      importFirstMs: Math.round(first.ms),
      importAfterOneChangeMs: Math.round(second.ms),
      importUnchangedMs: Math.round(unchanged.ms),
      rssBeforeMb: Math.round(rssBefore / 2 ** 20),
      peakRssMb: Math.round(Math.max(peakRss, process.resourceUsage().maxRSS * 1024) / 2 ** 20),
    };
    console.log(
      [
        `import pipeline: ${pageCount} pages + ${imageCount} images (${(repositoryBytes / 1e6).toFixed(1)} MB)`,
        `  git clone (CLI)                    ${result.gitCloneMs} ms (--depth 1 --bare: ${result.gitCloneShallowMs} ms)`,
        `  markdown-it parse of all pages     ${result.markdownItParseMs} ms (second pass: ${result.markdownItParseWarmMs} ms)`,
        `  importGitRepository, first         ${result.importFirstMs} ms`,
        `  importGitRepository, 1 page edited ${result.importAfterOneChangeMs} ms`,
        `  importGitRepository, unchanged     ${result.importUnchangedMs} ms`,
        `  RSS before imports ${result.rssBeforeMb} MB, peak ${result.peakRssMb} MB`,
      ].join('\n'),
    );
    return result;
  } finally {
    clearInterval(sampler);
    await server.close();
    await fs.rm(scratch, { recursive: true, force: true });
  }
}
