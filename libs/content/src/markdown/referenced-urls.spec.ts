import { referencedAssets, referencedIncludes, referencedLinks } from './referenced-urls';

const PAGE = [
  '---',
  'cover: ../.gitbook/assets/cover.png',
  '---',
  '',
  '![a](../.gitbook/assets/image%20(1).png) ![remote](https://cdn.example.com/x.png) ![inline](data:image/png;base64,AAAA)',
  '',
  '<figure><img src="../.gitbook/assets/Screenshot 2022 (1).png" alt=""><figcaption></figcaption></figure>',
  '',
  'Text with <img src="icons/i&#x26;j.svg"> and [a page](../other\\_page.md#part) and [site](https://example.com).',
  '',
  '{% file src="../.gitbook/assets/report.pdf" %}',
  '',
  '{% content-ref url="use-cases/" %}',
  '[use-cases](use-cases/)',
  '{% endcontent-ref %}',
  '',
  '| Doc |',
  '| --- |',
  '| [Table link](table.md) ![t](t.png) |',
  '',
  'See [page.md](page.md "mention") and [again](../other\\_page.md#part) and [file](../.gitbook/assets/report.pdf).',
  '',
  '<p align="center"><a href="https://x.y"><img src="raw/html.png"></a></p>',
  '',
  '```html',
  '<img src="in-code.png">',
  '```',
].join('\n');

describe('referencedAssets', () => {
  it('lists relative image, file and cover URLs as written, once each, in order', () => {
    expect(referencedAssets(PAGE)).toEqual([
      '../.gitbook/assets/image%20(1).png',
      '../.gitbook/assets/Screenshot 2022 (1).png',
      'icons/i&j.svg',
      '../.gitbook/assets/report.pdf',
      't.png',
      'raw/html.png',
      '../.gitbook/assets/cover.png',
    ]);
  });

  it('is empty for a page without assets', () => {
    expect(referencedAssets('Just [a link](a.md).')).toEqual([]);
  });
});

describe('referencedLinks', () => {
  it('lists link, mention and content-ref targets as written, once each, in order', () => {
    expect(referencedLinks(PAGE)).toEqual(['../other_page.md#part', 'https://example.com', 'use-cases/', 'table.md', 'page.md', '../.gitbook/assets/report.pdf', 'https://x.y']);
  });
});

describe('referencedAssets: images and files the document tree does not show as images', () => {
  it('finds srcset, <img> in HTML tables and figures, table header images and links to local files', () => {
    const page = [
      '# Home',
      '',
      '| ![](head.png) | B |',
      '| --- | --- |',
      '| ![](t1.png) | <img src="t2.png" width="100"> |',
      '',
      '<table><tr><td><img src="t3.png"></td></tr></table>',
      '',
      '<figure><img src="f1.png" alt=""><figcaption><p>Cap</p></figcaption></figure>',
      '',
      '<picture><source srcset="s1.png 1x, s2.png 2x"><img src="s3.png" srcset="s4.png 480w"></picture>',
      '',
      '[Download](.gitbook/assets/doc.pdf) and [the zip](<files/my archive.zip>) and <a href="files/x.csv">csv</a>',
      '',
      'Not files: [page](page.md), [folder](guide/), [old](page.html), [site](https://x.y/a.pdf), [anchor](#a)',
      '',
      '```',
      '![](in-code.png) [c](in-code.pdf)',
      '```',
    ].join('\n');
    expect(referencedAssets(page).sort()).toEqual(
      ['head.png', 't1.png', 't2.png', 't3.png', 'f1.png', 's1.png', 's2.png', 's3.png', 's4.png', '.gitbook/assets/doc.pdf', 'files/my archive.zip', 'files/x.csv'].sort(),
    );
  });
});

describe('referencedIncludes', () => {
  it('lists {% include %} paths outside code', () => {
    const page = ['# A', '', '{% include "../.gitbook/includes/x.md" %}', '', "Text {% include '../.gitbook/includes/y.md' %}", '', '```', '{% include "z.md" %}', '```'].join('\n');
    expect(referencedIncludes(page)).toEqual(['../.gitbook/includes/x.md', '../.gitbook/includes/y.md']);
    expect(referencedIncludes('# none')).toEqual([]);
  });
});
