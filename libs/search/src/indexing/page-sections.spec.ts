import { pageSections } from './page-sections';

describe('pageSections', () => {
  it('splits a page at its headings, leaving out the title', () => {
    const sections = pageSections('# Title\n\nIntro text.\n\n## Setup\n\nInstall it.\n');
    expect(sections.map((s) => [s.title, s.text.trim()])).toEqual([
      ['', 'Intro text.'],
      ['Setup', 'Install it.'],
    ]);
  });
});
