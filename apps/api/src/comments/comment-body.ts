import { badRequest } from '@quire/domain';
import { documentToMarkdown, JSONDocument } from '@quire/content/markdown';
import { normaliseDescription } from '../change-requests/change-requests.controller';

/** A comment's body as stored: the document its markdown reads back as, and never empty. */
export function commentBody(doc: unknown, field = 'body'): JSONDocument {
  const normalised = normaliseDescription(doc, field);
  if (!documentToMarkdown(normalised).trim()) throw badRequest(`Invalid body: ${field}: the comment is empty`);
  return normalised;
}
