import type { FastifyReply } from 'fastify';
import type { RevisionFileNode } from '@quire/domain';
import { ContentStore } from '@quire/content/store';
import { ifNoneMatchHolds } from '../http/conditional';
import { fileBytesHeaders } from '../http/file-bytes';

/**
 * A file's bytes as a download answer (the live file, a revision's file). The URL names a file,
 * whose bytes change when the file is replaced, so caches revalidate by the blob id (ETag). Its
 * type and disposition follow the published site's allow-list (http/file-bytes.ts): an SVG or
 * HTML file must never run as this origin's page.
 */
export async function sendFile(reply: FastifyReply, store: ContentStore, spaceId: string, file: RevisionFileNode): Promise<void> {
  const etag = `"${file.blob}"`;
  void reply.header('etag', etag).header('cache-control', 'private, no-cache').headers(fileBytesHeaders(file));
  if (ifNoneMatchHolds(reply.request.headers['if-none-match'], etag)) {
    await reply.status(304).send();
    return;
  }
  const bytes = await store.readBlob(spaceId, file.blob);
  await reply.status(200).send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
}
