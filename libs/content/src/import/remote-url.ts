import { GitImportError } from './import.errors';

export interface RemoteUrl {
  /** The URL without `user:password@`: the only form that is logged, hashed or shown. */
  url: string;
  /** Credentials that were written into the URL, if any. */
  auth?: { username: string; password: string };
}

/** Splits credentials out of an http(s) clone URL. */
export function parseRemoteUrl(input: string): RemoteUrl {
  let parsed: URL;
  try {
    parsed = new URL(input.trim());
  } catch {
    throw new GitImportError('invalid_url', `${redactCredentials(input)} is not a valid URL`, false);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new GitImportError('invalid_url', `Only http(s) git URLs can be imported, not ${parsed.protocol.replace(/:$/, '')}`, false);
  }
  const auth =
    parsed.username || parsed.password
      ? { username: safeDecode(parsed.username), password: safeDecode(parsed.password) }
      : undefined;
  parsed.username = '';
  parsed.password = '';
  parsed.hash = '';
  return { url: parsed.toString().replace(/\/+$/, ''), ...(auth ? { auth } : {}) };
}

/** Removes `user:password@` from every URL in a text. */
export function redactCredentials(text: string): string {
  return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^/?#\s@]*@/gi, '$1');
}

/** Redacts URL credentials and any occurrence of the given secrets (a server may echo a
 * password back in an error page). */
export function scrubSecrets(text: string, secrets: Array<string | undefined>): string {
  let out = redactCredentials(text);
  for (const secret of secrets) {
    if (secret) out = out.split(secret).join('***');
  }
  return out;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
