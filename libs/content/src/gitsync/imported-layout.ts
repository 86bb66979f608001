export type ImportedPageKind = 'sheet' | 'group' | 'link';

export interface ImportedPage {
  kind: ImportedPageKind;
  title: string;
  /** Segment within the direct parent; '' for link pages, which have no path. */
  slug: string;
  /** API path: the slug chain joined by '/', groups included; '' for link pages. */
  path: string;
  /** File path relative to the repository root. Absent for link pages, and for sheets
   * that come from a SUMMARY bullet without a link (an empty page holding children). */
  sourcePath?: string;
  /** Table-of-contents title, from `[Title](page.md "Link title")`. */
  linkTitle?: string;
  /** Target of a link page. */
  href?: string;
  children: ImportedPage[];
}

export interface ImportedLayout {
  /** '' or a directory prefix ending with '/', such as 'docs/'. */
  docsRoot: string;
  /** Repository path of the space's first page. */
  readmePath: string;
  /** Repository path of SUMMARY.md; absent when the tree came from the folders. */
  summaryPath?: string;
  pages: ImportedPage[];
  /** Old path (relative to the docs root, no leading '/') -> API path of the target page. */
  redirects: Record<string, string>;
  /** The same redirects as `.gitbook.yaml` states them: old path -> repository path of the
   * target page's file. Only redirects whose target became a page. */
  redirectFiles?: Record<string, string>;
  warnings: string[];
}
