import { z } from 'zod';
import { paginationQuery } from '@quire/platform/http/pagination';
import { queryBool } from '../http/validation';

/** GitBook's content-read options (reference §1); unknown values are a 400. */
const shared = {
  metadata: queryBool.default(true),
  computed: queryBool.default(true),
};
const pageOptions = {
  ...shared,
  format: z.enum(['document', 'markdown']).optional(),
  'format.markdown.refs': z.enum(['relative', 'stable']).default('relative'),
  evaluated: z.enum(['true', 'false', 'deterministic-only']).default('false'),
  dereferenced: z.enum(['true', 'false', 'reusable-contents']).default('false'),
};

export const revisionQuery = z.object(shared);
export const filesQuery = z.object({ ...shared, ...paginationQuery });
export const pageByIdQuery = z.object(pageOptions);
export const pageByPathQuery = z.object({ ...pageOptions, cachedMetadata: queryBool.default(false) });

export type PageOptions = z.infer<typeof pageByIdQuery>;

/** A page's or reusable content's bare document (`.../document` reads): only the body options. */
export const documentQuery = z.object({ evaluated: pageOptions.evaluated, dereferenced: pageOptions.dereferenced });
/** getDocumentById: `schema` names the document schema version; Quire has one, so both read the same. */
export const documentByIdQuery = z.object({ schema: z.enum(['current', 'next']).optional(), dereferenced: pageOptions.dereferenced });

/** Every page option at its default (the reads that take none: a page's document, its meta links), parsed once. */
export const defaultPageOptions: Readonly<PageOptions> = Object.freeze(pageByIdQuery.parse({}));
