import { GitImportError } from './import.errors';
import { parseRemoteUrl, redactCredentials, redactUrl, scrubSecrets } from './remote-url';

describe('parseRemoteUrl', () => {
  it('splits credentials out of the URL, decoded', () => {
    expect(parseRemoteUrl('https://alice:p%40ss%3Aword@git.example.com/org/docs.git')).toEqual({
      url: 'https://git.example.com/org/docs.git',
      auth: { username: 'alice', password: 'p@ss:word' },
    });
    expect(parseRemoteUrl('https://token@git.example.com/docs')).toEqual({
      url: 'https://git.example.com/docs',
      auth: { username: 'token', password: '' },
    });
  });

  it('leaves a URL without credentials as it is, minus a trailing slash or fragment', () => {
    expect(parseRemoteUrl(' http://127.0.0.1:8080/docs.git/#x ')).toEqual({ url: 'http://127.0.0.1:8080/docs.git' });
  });

  it('refuses what is not an http(s) URL, without echoing credentials', () => {
    for (const input of ['git@github.com:org/docs.git', 'ssh://git@host/x.git', 'file:///tmp/x', '']) {
      expect(() => parseRemoteUrl(input)).toThrow(GitImportError);
    }
    try {
      parseRemoteUrl('ht!tp://bob:secret@host/x');
    } catch (error) {
      expect((error as GitImportError).code).toBe('invalid_url');
      expect((error as Error).message).not.toContain('secret');
    }
  });
});

describe('secret query parameters', () => {
  it('takes token parameters out of a clone URL, keeping the others', () => {
    expect(parseRemoteUrl('https://git.example.com/docs.git?private_token=t1&access_token=t2&token=t3&ref=x')).toEqual({
      url: 'https://git.example.com/docs.git?ref=x',
      secretQuery: [
        ['private_token', 't1'],
        ['access_token', 't2'],
        ['token', 't3'],
      ],
    });
    expect(parseRemoteUrl('https://git.example.com/docs.git?private_token=t1').url).toBe('https://git.example.com/docs.git');
  });

  it('redactUrl drops userinfo and token parameters from a URL to record', () => {
    expect(redactUrl('https://bot:pw@example.com/tree/main?access_token=t&tab=docs')).toBe('https://example.com/tree/main?tab=docs');
    expect(redactUrl('https://example.com/commit?token=t')).toBe('https://example.com/commit');
    expect(redactUrl('not a url: https://u:pw@x.org/?private_token=t')).toBe('not a url: https://x.org/?private_token=***');
  });

  it('redactCredentials hides token parameter values in text', () => {
    expect(redactCredentials('GET https://x.org/r.git/info/refs?service=git-upload-pack&private_token=abc failed')).toBe(
      'GET https://x.org/r.git/info/refs?service=git-upload-pack&private_token=*** failed',
    );
  });
});

describe('redactCredentials and scrubSecrets', () => {
  it('removes user:password@ from every URL in a text', () => {
    expect(redactCredentials('fetch https://a:b@x.org/r.git failed; see http://c@y.org/')).toBe(
      'fetch https://x.org/r.git failed; see http://y.org/',
    );
    expect(redactCredentials('no url here, user@example.com')).toBe('no url here, user@example.com');
  });

  it('also removes the secrets themselves', () => {
    expect(scrubSecrets('server said: bad password hunter2', ['hunter2', undefined])).toBe('server said: bad password ***');
  });
});
