import { formatFrontMatter, parseFrontMatter } from './front-matter';

describe('parseFrontMatter', () => {
  it('splits YAML front matter from the body', () => {
    expect(parseFrontMatter('---\ndescription: >-\n  Long\n  text\ncoverY: 12\nlayout:\n  width: wide\n---\n\n# Title\n')).toEqual({
      data: { description: 'Long text', coverY: 12, layout: { width: 'wide' } },
      body: '\n# Title\n',
    });
  });

  it('returns the whole text as body when there is no front matter', () => {
    expect(parseFrontMatter('# Title\n\n---\n')).toEqual({ data: {}, body: '# Title\n\n---\n' });
  });

  it('accepts an empty block, CRLF line endings, a byte order mark and a `...` terminator', () => {
    expect(parseFrontMatter('---\n---\nBody')).toEqual({ data: {}, body: 'Body' });
    expect(parseFrontMatter('\uFEFF---\r\nicon: gear\r\n...\r\nBody')).toEqual({ data: { icon: 'gear' }, body: 'Body' });
  });

  it('treats invalid YAML, or YAML that is not a mapping, as no front matter', () => {
    for (const markdown of ['---\ndescription: [oops\n---\nBody', '---\n- a list\n---\nBody', '---\njust text\n---\nBody']) {
      expect(parseFrontMatter(markdown)).toEqual({ data: {}, body: markdown });
    }
  });

  it('treats an unterminated block as no front matter', () => {
    expect(parseFrontMatter('---\nicon: x\n\nBody')).toEqual({ data: {}, body: '---\nicon: x\n\nBody' });
  });

  it('keeps the last value of a duplicated key', () => {
    expect(parseFrontMatter('---\nicon: a\nicon: b\n---\n').data).toEqual({ icon: 'b' });
  });
});

describe('formatFrontMatter', () => {
  it('writes a fenced YAML block, skipping undefined values', () => {
    expect(formatFrontMatter({ description: 'A: b', hidden: true, icon: undefined })).toBe('---\ndescription: "A: b"\nhidden: true\n---');
  });

  it('writes nothing for empty front matter', () => {
    expect(formatFrontMatter({})).toBe('');
    expect(formatFrontMatter(undefined)).toBe('');
  });

  it('reads back what it writes', () => {
    const data = { description: 'Line with # and : inside', layout: { cover: { visible: true } }, coverY: -3 };
    expect(parseFrontMatter(`${formatFrontMatter(data)}\n\nBody`).data).toEqual(data);
  });
});
