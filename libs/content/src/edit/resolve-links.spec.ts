import { resolveLinks, type LinkTargets } from './resolve-links';

const targets: LinkTargets = {
  pathById: { pHome: 'README.md', pGuide: 'guide.md', pSetup: 'guides/setup.md' },
  idByApiPath: new Map([
    ['guide', 'pGuide'],
    ['guides/setup', 'pSetup'],
  ]),
  fileById: new Map([['fPic', '.gitbook/assets/pic (1).png']]),
  pageRefs: new Map(),
  fileRefs: new Map([['rep', '.gitbook/assets/report.pdf']]),
  readmePath: 'README.md',
};
const resolve = (text: string, file = 'guides/setup.md') => resolveLinks(text, file, targets);

describe('resolveLinks', () => {
  it('resolves markdown links and images to paths relative to the page', () => {
    expect(resolve('See [the guide](/pages/pGuide#start) and ![pic](/files/fPic).')).toBe('See [the guide](../guide.md#start) and ![pic](<../.gitbook/assets/pic (1).png>).');
  });

  it('resolves the url of a content-ref tag as well as its inner link', () => {
    const text = '{% content-ref url="/pages/pGuide" %}\n[Guide](/pages/pGuide)\n{% endcontent-ref %}\n';
    expect(resolve(text)).toBe('{% content-ref url="../guide.md" %}\n[Guide](../guide.md)\n{% endcontent-ref %}\n');
  });

  it('resolves the src of file tags by file id and by batch-local ref', () => {
    expect(resolve('{% file src="/files/fPic" %}\nCaption\n{% endfile %}')).toBe('{% file src="../.gitbook/assets/pic (1).png" %}\nCaption\n{% endfile %}');
    expect(resolve("{% file src='./rep' %}", 'README.md')).toBe("{% file src='.gitbook/assets/report.pdf' %}");
    expect(resolve('{% embed url="https://example.com/x" %}')).toBe('{% embed url="https://example.com/x" %}');
  });

  it('resolves <img src> and <a href> in HTML', () => {
    expect(resolve('<figure><img src="/files/fPic" alt="A picture"><figcaption>Pic</figcaption></figure>')).toBe(
      '<figure><img src="../.gitbook/assets/pic (1).png" alt="A picture"><figcaption>Pic</figcaption></figure>',
    );
    expect(resolve('<a href="/pages/guides/setup">Setup</a>', 'README.md')).toBe('<a href="guides/setup.md">Setup</a>');
  });

  it('leaves code spans and code blocks as written', () => {
    const text = [
      'Use `[x](/pages/pGuide)` to link, or ``a ` [y](/pages/pGuide)`` here; but [real](/pages/pGuide).',
      'Span across `lines [z](/pages/pGuide)',
      'still code` then [after](/pages/pGuide)',
      '',
      '```md',
      '[in fence](/pages/pGuide) {% file src="/files/fPic" %}',
      '```',
      '',
      '    [indented](/pages/pGuide)',
      '',
      '`{% file src="/files/fPic" %}` and `<img src="/files/fPic">`',
      '\\`[escaped](/pages/pGuide)\\`',
    ].join('\n');
    expect(resolve(text, 'README.md')).toBe(
      [
        'Use `[x](/pages/pGuide)` to link, or ``a ` [y](/pages/pGuide)`` here; but [real](guide.md).',
        'Span across `lines [z](/pages/pGuide)',
        'still code` then [after](guide.md)',
        '',
        '```md',
        '[in fence](/pages/pGuide) {% file src="/files/fPic" %}',
        '```',
        '',
        '    [indented](/pages/pGuide)',
        '',
        '`{% file src="/files/fPic" %}` and `<img src="/files/fPic">`',
        '\\`[escaped](guide.md)\\`',
      ].join('\n'),
    );
  });

  it('turns a link to a page that does not exist into its text, and keeps what it does not know', () => {
    expect(resolve('[gone](/pages/nothing) [ext](https://x.test) [rel](other.md)', 'README.md')).toBe('gone [ext](https://x.test) [rel](other.md)');
    expect(resolve('{% content-ref url="/pages/nothing" %}', 'README.md')).toBe('{% content-ref url="/pages/nothing" %}');
  });
});
