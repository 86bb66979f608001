import type { FastifyReply } from 'fastify';
import type { RevisionFileNode } from '@quire/domain';
import { ContentStore } from '@quire/content/store';

/**
 * A file's bytes as a download answer. The URL names a file, whose bytes change when the file is
 * replaced, so caches revalidate by the blob id (ETag); an SVG or HTML file must never run as
 * this origin's page.
 */
export async function sendFile(reply: FastifyReply, store: ContentStore, spaceId: string, file: RevisionFileNode, ifNoneMatch: string | undefined): Promise<void> {
  const etag = `"${file.blob}"`;
  void reply
    .header('etag', etag)
    .header('cache-control', 'private, no-cache')
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
  if (ifNoneMatch && ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) {
    await reply.status(304).send();
    return;
  }
  const bytes = await store.readBlob(spaceId, file.blob);
  await reply
    .status(200)
    .header('content-type', file.contentType || 'application/octet-stream')
    .header('content-disposition', `inline; filename*=UTF-8''${encodeURIComponent(file.name)}`)
    .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
}
