import { documentToPlainText } from './document-to-plain-text';
import { markdownToDocument } from './markdown-to-document';

describe('documentToPlainText', () => {
  it('gives the words of every block, one per line, without markup or link targets', () => {
    const { document } = markdownToDocument(
      [
        '# Title',
        'A **bold** [link](x.md) and $$E=mc^2$$.',
        '* one\n* two',
        '```\ncode line\n```',
        '{% hint style="info" %}\nHinted\n{% endhint %}',
        '{% tabs %}\n{% tab title="Tab A" %}\nIn tab\n{% endtab %}\n{% endtabs %}',
        '<details>\n\n<summary>Summary</summary>\n\nHidden\n\n</details>',
        '| Col | Other |\n| --- | --- |\n| cell | <p>two</p><p>lines</p> |',
        '<figure><img src="a.png" alt="Alt text"><figcaption><p>Caption</p></figcaption></figure>',
      ].join('\n\n'),
    );

    expect(documentToPlainText(document).split('\n')).toEqual([
      'A bold link and E=mc^2.',
      'one',
      'two',
      'code line',
      'Hinted',
      'Tab A',
      'In tab',
      'Summary',
      'Hidden',
      'Col Other',
      'cell two lines',
      'Alt text',
      'Caption',
    ]);
  });

  it('is empty for an empty document', () => {
    expect(documentToPlainText({ object: 'document', data: {}, nodes: [] })).toBe('');
  });

  it('indexes the words of GitBook\'s HTML constructs, not their markup', () => {
    const { document } = markdownToDocument(
      [
        '<p align="center">Choose a <strong>path</strong>.</p>',
        '<table data-view="cards"><thead><tr><th><select><option value="o1" label="CREATE" color="blue"></option></select></th><th></th><th data-hidden data-card-target data-type="content-ref"></th></tr></thead><tbody><tr><td><span data-option="o1">CREATE</span></td><td><h4><i class="fa-gear">:gear:</i> Custom components</h4></td><td><a href="a.md">a.md</a></td></tr></tbody></table>',
        '<a href="https://x.y" class="button primary">Get started</a> and <mark style="color:red;">red</mark>',
      ].join('\n\n'),
    );

    expect(documentToPlainText(document).split('\n')).toEqual(['Choose a path.', 'CREATE Custom components', 'Get started and red']);
  });
});
