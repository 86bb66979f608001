import { referencedAssetPaths } from './referenced-asset-paths';
import { memorySourceTree } from './source-tree';

const tree = memorySourceTree({
  '.gitbook/assets/image (1).png': '',
  '.gitbook/assets/Screenshot 2022-09-11 at 00.06.24 (1).png': '',
  '.gitbook/assets/fluentd-architecture (1) (2).png': '',
  '.gitbook/assets/literal%20name.png': '',
  'docs/images/logo.svg': '',
  'guide/diagram.png': '',
});

describe('referencedAssetPaths', () => {
  it('resolves page-relative URLs, encoded or not, with spaces and (1)', () => {
    const urls = [
      '../.gitbook/assets/image (1).png',
      '../.gitbook/assets/image%20(1).png',
      '<../.gitbook/assets/Screenshot 2022-09-11 at 00.06.24 (1).png>',
      '../.gitbook/assets/fluentd-architecture%20%281%29%20%282%29.png',
      './diagram.png?raw=true#frag',
      '../.gitbook/assets/literal%20name.png',
    ];
    expect(referencedAssetPaths('guide/page.md', urls, tree)).toEqual({
      found: [
        { url: urls[0], path: '.gitbook/assets/image (1).png' },
        { url: urls[1], path: '.gitbook/assets/image (1).png' },
        { url: urls[2], path: '.gitbook/assets/Screenshot 2022-09-11 at 00.06.24 (1).png' },
        { url: urls[3], path: '.gitbook/assets/fluentd-architecture (1) (2).png' },
        { url: urls[4], path: 'guide/diagram.png' },
        { url: urls[5], path: '.gitbook/assets/literal%20name.png' },
      ],
      missing: [],
    });
  });

  it('resolves root-relative URLs against the docs root', () => {
    expect(referencedAssetPaths('docs/a/b.md', ['/images/logo.svg'], tree, { docsRoot: 'docs/' }).found).toEqual([
      { url: '/images/logo.svg', path: 'docs/images/logo.svg' },
    ]);
  });

  it('reports missing files and URLs climbing out of the repository', () => {
    expect(referencedAssetPaths('page.md', ['.gitbook/assets/nope.png', '../../outside.png'], tree)).toEqual({
      found: [],
      missing: ['.gitbook/assets/nope.png', '../../outside.png'],
    });
  });

  it('ignores external URLs, data URIs and anchors, and repeats', () => {
    const result = referencedAssetPaths(
      'guide/page.md',
      ['https://example.com/x.png', '//cdn.example.com/y.png', 'data:image/png;base64,AAAA', '#top', './diagram.png', './diagram.png'],
      tree,
    );
    expect(result).toEqual({ found: [{ url: './diagram.png', path: 'guide/diagram.png' }], missing: [] });
  });
});
