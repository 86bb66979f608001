import type { DraftPage } from './build-page-tree';
import { titleFromFileName } from './page-title';
import { isMarkdownPath, isReadmePath } from './repo-path';

interface Folder {
  name: string;
  readme?: string;
  pages: string[];
  folders: Map<string, Folder>;
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/**
 * The table of contents GitBook infers when there is no SUMMARY.md: every Markdown file
 * under the docs root is a page; a folder's README.md is the folder's page and the
 * folder's other files and sub-folders are its children; a folder without a README is an
 * empty page named after the folder. Siblings are in natural order of their names
 * (`2-setup` before `10-faq`), files and folders mixed. Hidden folders (`.gitbook/`,
 * `.github/`) and `node_modules/` are left out.
 */
export function folderTreeDrafts(files: Iterable<string>, docsRoot: string, readmePath: string): DraftPage[] {
  const top: Folder = { name: '', pages: [], folders: new Map() };
  for (const file of files) {
    if (!file.startsWith(docsRoot) || !isMarkdownPath(file) || file === readmePath) continue;
    const segments = file.slice(docsRoot.length).split('/');
    if (segments.some((s) => s.startsWith('.') || s === 'node_modules')) continue;
    if (segments.length === 1 && segments[0].toLowerCase() === 'summary.md') continue;
    let folder = top;
    for (const name of segments.slice(0, -1)) {
      let next = folder.folders.get(name);
      if (!next) folder.folders.set(name, (next = { name, pages: [], folders: new Map() }));
      folder = next;
    }
    if (isReadmePath(file) && folder !== top) folder.readme = file;
    else folder.pages.push(file);
  }
  return childrenOf(top);
}

function childrenOf(folder: Folder): DraftPage[] {
  const named: Array<{ name: string; draft: DraftPage }> = [];
  for (const path of folder.pages) {
    const name = path.slice(path.lastIndexOf('/') + 1);
    named.push({ name: name.replace(/\.md$/i, ''), draft: { kind: 'sheet', sourcePath: path, slugFrom: name, children: [] } });
  }
  for (const sub of folder.folders.values()) {
    named.push({
      name: sub.name,
      draft: {
        kind: 'sheet',
        sourcePath: sub.readme,
        title: sub.readme ? undefined : titleFromFileName(sub.name),
        slugFrom: sub.name,
        children: childrenOf(sub),
      },
    });
  }
  return named.sort((a, b) => collator.compare(a.name, b.name) || (a.name < b.name ? -1 : 1)).map((n) => n.draft);
}
