/**
 * How every route that serves a stored file's bytes (the API's download, the published site's
 * files) labels them. Files are user content: only types a browser shows inertly are served
 * inline under their own type; anything else (HTML, scripts, unknown types) is an attachment of
 * type application/octet-stream, so that a file can never act as a page of Quire's origin.
 */
const INLINE_TYPES = /^(image\/(png|jpeg|gif|webp|avif|bmp|x-icon|vnd\.microsoft\.icon|svg\+xml)|application\/pdf|video\/[\w.+-]+|audio\/[\w.+-]+|text\/plain)$/;

/** Served with every file's bytes: an SVG or PDF shown inline cannot run anything either. */
export const FILE_CSP = `default-src 'none'; style-src 'unsafe-inline'; sandbox`;

export function fileBytesHeaders(file: { name: string; contentType?: string | null }): Record<string, string> {
  const inline = !!file.contentType && INLINE_TYPES.test(file.contentType);
  return {
    'content-type': inline ? file.contentType! : 'application/octet-stream',
    'content-disposition': `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(file.name)}`,
    'content-security-policy': FILE_CSP,
    'x-content-type-options': 'nosniff',
  };
}
