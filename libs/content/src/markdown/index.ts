/**
 * GitBook-flavoured markdown <-> GitBook document JSON (`JSONDocument` of `@gitbook/api`).
 *
 * References: pages are stored as markdown and the API serves documents converted from it, so
 * references keep the raw relative URL they have in the markdown (markdown escapes undone, no
 * percent-decoding) instead of GitBook ids:
 * - links, mentions, content-refs and images: `ref: { kind: 'url', url: '../other-page.md' }`;
 * - `{% file %}` blocks, whose schema only allows file refs: `ref: { kind: 'file', file: '../.gitbook/assets/x.pdf' }`;
 * - table record values of `content-ref` (a card's target), `image` (a card's cover) and `files`
 *   columns: the same URL refs, and paths for files.
 * Reads resolve them to page and file ids of the revision (resolveDocumentRefs); documents
 * written with id refs (`{kind:'page'}`, `{kind:'anchor'}`, `{kind:'file', file: <id>}`) come out
 * as `/pages/<id>` and `/files/<id>` links, which the content API's writes resolve to paths.
 *
 * The leading `# H1` is the page title: markdownToDocument returns it as `title` and keeps it
 * out of the document; pass it back as `documentToMarkdown(doc, { title })`.
 *
 * Documents always match the schema, whose nesting is stricter than markdown's: a block a
 * container may not hold is moved after it (a code block in a hint splits the hint), images and
 * block math become inline where only paragraphs fit, and a table in a tab goes into an info
 * hint. See fit-schema-nesting.ts.
 *
 * GitBook's retired API method block (`{% swagger method path %}` with `swagger-parameter` and
 * `swagger-response`) has no block in the format: it reads as the standard blocks GitBook turned
 * every such block into in 2024 (api-method-blocks.ts).
 *
 * HTML is read with a parser (html-fragments.ts): what GitBook writes for blocks markdown cannot
 * hold (tables and cards, figures and dark-mode pictures, aligned text, buttons, icons, mentions,
 * expressions, colour marks) becomes its block or inline (html-to-document.ts,
 * html-table-to-document.ts, inline-to-document.ts) and is written back in GitBook's form. Other
 * HTML elements are unwrapped (their content kept, as a browser shows it); a tag that names no
 * HTML element (`<your-token>`) and unknown `{% %}` tags stay literal text.
 */
export type {
  ContentRef,
  DocumentBlock,
  DocumentFragment,
  DocumentInline,
  DocumentMark,
  DocumentNode,
  DocumentText,
  DocumentTextLeaf,
  JSONDocument,
  PageFrontMatter,
  ParsedPageMarkdown,
} from './document.types';
export { frontMatterProblem, parseFrontMatter } from './front-matter';
export { markdownToDocument } from './markdown-to-document';
export { parseBlobMarkdown } from './parsed-blobs';
export { documentToMarkdown, type DocumentToMarkdownOptions } from './document-to-markdown';
export { documentToPlainText } from './document-to-plain-text';
export { extractSections, type DocumentSection } from './extract-sections';
export { referencedAssets, referencedIncludes, referencedLinks } from './referenced-urls';
export { headingSlug } from './heading-anchors';
export { expandIncludes, refTargets, refTargetsBytes, resolveDocumentRefs, resolveRefUrl, stableMarkdown, type RefTargets } from './resolve-refs';
