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

  it("reads YAML 1.2's core schema: dates, yes and no stay text; numbers, booleans and null are values", () => {
    expect(parseFrontMatter('---\ndate: 2024-01-31\nflag: yes\nhidden: true\ncoverY: -3.5\nn: 0x1F\nicon:\n<<: {a: 1}\n---\n').data).toEqual({
      date: '2024-01-31',
      flag: 'yes',
      hidden: true,
      coverY: -3.5,
      n: 31,
      icon: null,
      '<<': { a: 1 },
    });
  });

  it('keeps the value of a tag it does not know, and applies the ones it knows', () => {
    expect(parseFrontMatter('---\ndescription: !note Kept\nicon: !!binary Z2Vhcg==\nlayout: !wide {width: wide}\nlist: !x [1]\nid: !!str 12\n---\n').data).toEqual({
      description: 'Kept',
      icon: 'Z2Vhcg==',
      layout: { width: 'wide' },
      list: [1],
      id: '12',
    });
  });

  it('resolves anchors and aliases', () => {
    expect(parseFrontMatter('---\ntitle: &t Same\ndescription: *t\n---\n').data).toEqual({ title: 'Same', description: 'Same' });
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
