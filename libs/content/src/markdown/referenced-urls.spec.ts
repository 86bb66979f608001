import { referencedAssets, referencedLinks } from './referenced-urls';

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
    expect(referencedLinks(PAGE)).toEqual(['../other_page.md#part', 'https://example.com', 'use-cases/', 'table.md', 'page.md', '../.gitbook/assets/report.pdf']);
  });
});
