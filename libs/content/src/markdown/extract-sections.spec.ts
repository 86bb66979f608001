import { extractSections } from './extract-sections';
import { markdownToDocument } from './markdown-to-document';

describe('extractSections', () => {
  it('splits at top-level headings, with the text before the first heading as section ""', () => {
    const { document } = markdownToDocument('# Page\n\nIntro text.\n\n## Install it\n\nRun **this**.\n\n* a\n\n### Details\n\n## Install it\n\nAgain.\n');

    expect(extractSections(document)).toEqual([
      { id: '', title: '', level: 0, text: 'Intro text.' },
      { id: 'install-it', title: 'Install it', level: 2, text: 'Run this.\na' },
      { id: 'details', title: 'Details', level: 3, text: '' },
      { id: 'install-it-1', title: 'Install it', level: 2, text: 'Again.' },
    ]);
  });

  it('omits an empty leading section and keeps headings nested in blocks as text', () => {
    const { document } = markdownToDocument('## 安裝 PostgreSQL\n\n{% hint style="info" %}\n### Inside\n{% endhint %}\n');

    expect(extractSections(document)).toEqual([{ id: '安裝-postgresql', title: '安裝 PostgreSQL', level: 2, text: 'Inside' }]);
  });

  it('derives ids for documents whose headings carry no meta.id', () => {
    const heading = { object: 'block' as const, type: 'heading-2', data: {}, nodes: [{ object: 'text' as const, leaves: [{ object: 'leaf' as const, text: 'Hello, World!', marks: [] }] }] };
    expect(extractSections({ object: 'document', data: {}, nodes: [heading, heading] }).map((s) => s.id)).toEqual(['hello-world', 'hello-world-1']);
  });
});
