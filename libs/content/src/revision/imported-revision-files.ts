import { stringify as stringifyYaml } from 'yaml';
import type { ImportedLayout, ImportedPage } from '../gitsync';
import { escapeTitle } from '../gitsync/markdown-inline';

const encoder = new TextEncoder();

/**
 * The files of a space revision holding an import: the pages and assets at their original
 * paths (so relative links and images keep working) under the docs root, and a SUMMARY.md that
 * states the imported tree — titles, groups, nesting, link pages — so that reading the
 * revision back gives the same pages the import found. `.gitbook.yaml` names a README
 * other than README.md, and keeps the repository's redirects whose target is a page.
 */
export function importedRevisionFiles(layout: ImportedLayout, files: Record<string, Uint8Array>): Record<string, Uint8Array> {
  const rel = (path: string) => (path.startsWith(layout.docsRoot) ? path.slice(layout.docsRoot.length) : path);
  const out: Record<string, Uint8Array> = { ...files };
  const readme = rel(layout.readmePath);
  out['SUMMARY.md'] = encoder.encode(summaryMarkdown(layout.pages, rel));
  const redirects = Object.fromEntries(Object.entries(layout.redirectFiles ?? {}).map(([from, file]) => [from, rel(file)]));
  const config: Record<string, unknown> = {};
  if (readme !== 'README.md') config.structure = { readme, summary: 'SUMMARY.md' };
  if (Object.keys(redirects).length > 0) config.redirects = redirects;
  if (Object.keys(config).length > 0) out['.gitbook.yaml'] = encoder.encode(stringifyYaml(config, { lineWidth: 0 }));
  return out;
}

function summaryMarkdown(pages: ImportedPage[], rel: (path: string) => string): string {
  const lines = ['# Table of contents', ''];
  let inGroup = false;
  for (const page of pages) {
    if (page.kind === 'group') {
      lines.push('', `## ${page.title.replace(/\s+/g, ' ').trim()}`, '');
      for (const child of page.children) bullet(child, 0, lines, rel);
      inGroup = true;
      continue;
    }
    // A root page after a group: a rule ends the group.
    if (inGroup) lines.push('', '***', '');
    inGroup = false;
    bullet(page, 0, lines, rel);
  }
  return lines.join('\n').replace(/\n{3,}/g, '\n\n') + '\n';
}

function bullet(page: ImportedPage, depth: number, lines: string[], rel: (path: string) => string): void {
  const indent = '  '.repeat(depth);
  const title = escapeTitle(page.title);
  const linkTitle = page.linkTitle ? ` "${page.linkTitle.replace(/"/g, '\\"')}"` : '';
  if (page.kind === 'link') lines.push(`${indent}* [${title}](${target(page.href ?? '')}${linkTitle})`);
  else if (page.sourcePath) lines.push(`${indent}* [${title}](${target(rel(page.sourcePath))}${linkTitle})`);
  else lines.push(`${indent}* ${title}`);
  for (const child of page.children) bullet(child, depth + 1, lines, rel);
}

function target(path: string): string {
  return /[\s()<>]/.test(path) ? `<${path.replace(/[<>]/g, (c) => encodeURIComponent(c))}>` : path;
}
