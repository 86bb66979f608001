/**
 * The GitBook document model (`JSONDocument` in `@gitbook/api` spec/openapi.json), limited
 * to what the markdown converter reads and writes. Nodes are structurally typed: `type`
 * names the schema variant and `data` carries its fields, so documents coming from the
 * API with block types we never produce still type-check and pass through untouched.
 */

export type DocumentMarkType =
  | 'bold'
  | 'italic'
  | 'code'
  | 'keyboard'
  | 'strikethrough'
  | 'superscript'
  | 'subscript'
  | 'color';

export interface DocumentMark {
  object: 'mark';
  type: DocumentMarkType;
  data?: Record<string, unknown>;
}

export interface DocumentTextLeaf {
  object: 'leaf';
  text: string;
  marks: DocumentMark[];
}

export interface DocumentText {
  object: 'text';
  key?: string;
  leaves: DocumentTextLeaf[];
}

/** `ContentRefURL` and `ContentRefFile` are the only kinds the converter creates. */
export type ContentRef =
  | { kind: 'url'; url: string }
  | { kind: 'file'; file: string; space?: string }
  | { kind: string; [field: string]: unknown };

export type DocumentInlineType =
  | 'link'
  | 'inline-image'
  | 'inline-math'
  | 'mention'
  | 'emoji'
  | 'icon'
  | 'expression'
  | 'annotation'
  | 'button';

export interface DocumentInline {
  object: 'inline';
  type: DocumentInlineType;
  key?: string;
  data: Record<string, unknown>;
  nodes?: Array<DocumentText | DocumentInline>;
  fragments?: DocumentFragment[];
  isVoid: boolean;
}

export type DocumentBlockType =
  | 'paragraph'
  | 'heading-1'
  | 'heading-2'
  | 'heading-3'
  | 'list-ordered'
  | 'list-unordered'
  | 'list-tasks'
  | 'list-item'
  | 'divider'
  | 'blockquote'
  | 'hint'
  | 'code'
  | 'code-line'
  | 'math'
  | 'images'
  | 'image'
  | 'file'
  | 'embed'
  | 'expandable'
  | 'tabs'
  | 'tabs-item'
  | 'table'
  | 'content-ref'
  | 'stepper'
  | 'stepper-step'
  | 'columns'
  | 'column'
  | (string & {});

export interface DocumentBlock {
  object: 'block';
  type: DocumentBlockType;
  key?: string;
  data: Record<string, unknown>;
  nodes?: Array<DocumentBlock | DocumentInline | DocumentText>;
  fragments?: DocumentFragment[];
  isVoid?: boolean;
  meta?: { id: string };
}

export interface DocumentFragment {
  object: 'fragment';
  key?: string;
  fragment: string;
  type?: string;
  nodes: DocumentBlock[];
}

export interface JSONDocument {
  object: 'document';
  data: { schemaVersion?: number; [field: string]: unknown };
  nodes: DocumentBlock[];
  meta?: { token?: string };
}

export type DocumentNode = DocumentBlock | DocumentInline | DocumentText;

/** Page metadata carried in YAML front matter (GitBook Git Sync keys, plus any others). */
export type PageFrontMatter = {
  description?: string;
  icon?: string;
  hidden?: boolean;
  if?: string;
  cover?: string;
  coverY?: number;
  layout?: unknown;
  [key: string]: unknown;
};

export interface ParsedPageMarkdown {
  frontMatter: PageFrontMatter;
  document: JSONDocument;
  /** Text of the leading `# H1`, which GitBook treats as the page title and keeps out of the document. */
  title?: string;
  /** The front matter `description`, when it is a string. */
  description?: string;
}
