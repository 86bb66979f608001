import { parseContentUrl } from './parse-content-url';

const bases = { publishedUrl: 'https://docs.example.com/sites', appUrl: 'https://docs.example.com' };
const parse = (u: string) => parseContentUrl(u, bases);

describe('parseContentUrl', () => {
  it('reads a published space or collection URL, with a page path', () => {
    expect(parse('https://docs.example.com/sites/acme/S1')).toEqual({ organization: 'acme', id: 'S1', kind: 'either', pagePath: '' });
    expect(parse('https://docs.example.com/sites/acme/S1/guides/install/?x=1#h')).toMatchObject({ id: 'S1', pagePath: 'guides/install' });
    expect(parse('http://DOCS.example.com/sites/acme/S1/caf%C3%A9')).toMatchObject({ pagePath: 'café' });
  });

  it('reads a change request and a page inside it', () => {
    expect(parse('https://docs.example.com/sites/acme/S1/~/changes/3')).toMatchObject({ id: 'S1', kind: 'space', changeRequest: '3', pagePath: '' });
    expect(parse('https://docs.example.com/sites/acme/S1/~/changes/3/a/b')).toMatchObject({ changeRequest: '3', pagePath: 'a/b' });
    expect(parse('https://docs.example.com/sites/acme/S1/~/revisions/r1')).toBeUndefined();
  });

  it('reads app URLs of spaces, change requests and collections', () => {
    expect(parse('https://docs.example.com/s/S1')).toMatchObject({ id: 'S1', kind: 'space', pagePath: '' });
    expect(parse('https://docs.example.com/s/S1/~/changes/7/intro')).toMatchObject({ id: 'S1', changeRequest: '7', pagePath: 'intro' });
    expect(parse('https://docs.example.com/o/O1/s/S1/page')).toMatchObject({ id: 'S1', pagePath: 'page' });
    expect(parse('https://docs.example.com/c/C1')).toMatchObject({ id: 'C1', kind: 'collection' });
    expect(parse('https://docs.example.com/c/C1/more')).toBeUndefined();
  });

  it("reads URLs on a custom hostname: the host names the organization, the path starts at the id", () => {
    expect(parse('https://Docs.Acme.com/S1')).toEqual({ customHostname: 'docs.acme.com', id: 'S1', kind: 'either', pagePath: '' });
    expect(parse('http://docs.acme.com/S1/guides/install/?x=1#h')).toMatchObject({ customHostname: 'docs.acme.com', id: 'S1', pagePath: 'guides/install' });
    expect(parse('https://docs.acme.com/S1/~/changes/3/a/b?shareKey=k')).toMatchObject({ id: 'S1', kind: 'space', changeRequest: '3', pagePath: 'a/b', shareKey: 'k' });
    expect(parse('https://docs.acme.com/C1')).toMatchObject({ id: 'C1', kind: 'either' });
    // Not a custom hostname: no id, a port, too few labels, or one of Quire's own hosts.
    for (const url of ['https://docs.acme.com/', 'https://docs.acme.com:8443/S1', 'https://acme.com/S1', 'https://docs.example.com/other/S1']) expect(parse(url)).toBeUndefined();
    expect(() => parse('https://docs.acme.com/S1/%E0%A4%A')).toThrow(/percent-encoding/);
  });

  it('keeps a share key', () => {
    expect(parse('https://docs.example.com/sites/acme/S1?shareKey=k1')).toMatchObject({ shareKey: 'k1' });
  });

  it('answers undefined for other hosts and paths, and refuses malformed URLs', () => {
    expect(parse('https://elsewhere.com/sites/acme/S1')).toBeUndefined();
    expect(parse('https://docs.example.com/sites/acme')).toBeUndefined();
    expect(parse('https://docs.example.com/')).toBeUndefined();
    expect(() => parse('not a url')).toThrow(/absolute URL/);
    expect(() => parse('ftp://docs.example.com/sites/a/b')).toThrow(/http/);
    expect(() => parse('https://docs.example.com/sites/acme/S1/%E0%A4%A')).toThrow(/percent-encoding/);
  });
});
