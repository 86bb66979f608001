import { parseQuery } from '../query/parse-query';
import { termMatchers } from '../query/term-matchers';
import type { RetrievedSection } from '../search.queries';
import { escapeMarkdown } from './ask-answer';
import { extractiveAnswer, splitSentences } from './extractive-answer';

const section = (over: Partial<RetrievedSection>): RetrievedSection => ({
  spaceId: 's1',
  revision: 'r1',
  pageId: 'p1',
  pageTitle: 'Buffer',
  path: 'buffer',
  sectionId: 'size',
  sectionTitle: 'Chunk size',
  body: '',
  score: 1,
  matchedTerms: 2,
  ...over,
});
const link = ({ spaceId, path, sectionId }: { spaceId: string; path: string; sectionId: string }) => `https://app/s/${spaceId}/${path}#${sectionId}`;

describe('extractive answers', () => {
  it('splits sentences at terminators (Latin and CJK) and lines', () => {
    expect(splitSentences('First one here. Second one here!\nThird line is here? 中文句子。第二句')).toEqual([
      'First one here.',
      'Second one here!',
      'Third line is here?',
      '中文句子。',
      '第二句',
    ]);
  });

  it('quotes the sentences holding the question terms and cites each section', () => {
    const matchers = termMatchers(parseQuery('chunk size '), (w) => [w]);
    const answer = extractiveAnswer({
      relevant: [
        section({ body: 'Buffers hold events. The chunk size is 8 MB by default. Flushes happen every minute.' }),
        section({ pageId: 'p2', pageTitle: 'Tuning', path: 'tuning', sectionId: '', sectionTitle: '', body: 'A bigger chunk size means fewer writes.' }),
        section({ pageId: 'p3', pageTitle: 'Other', path: 'other', sectionId: 'x', sectionTitle: 'X', body: 'Nothing to see.' }),
        section({ pageId: 'p4', pageTitle: 'Related', path: 'related', sectionId: 'more', sectionTitle: 'Chunk limits', body: 'More.' }),
      ],
      matchers,
      link,
    });
    expect(answer.markdown.split('\n\n')[0]).toBe('The chunk size is 8 MB by default. ([Buffer › Chunk size](https://app/s/s1/buffer#size))');
    expect(answer.markdown.split('\n\n')[1]).toBe('A bigger chunk size means fewer writes. ([Tuning](https://app/s/s1/tuning#))');
    expect(answer.sources.map((s) => [s.page, s.sections])).toEqual([
      ['p1', ['size']],
      ['p2', ['']],
      ['p3', ['x']],
    ]);
    expect(answer.sources[0].reason).toBe('Quoted for “chunk”, “size” from “Chunk size”');
    expect(answer.followupQuestions).toEqual(['What should I know about Chunk limits?']);
  });

  it('escapes markdown in quoted text', () => {
    expect(escapeMarkdown('Use <match **> and chunk_limit_size [x]')).toBe('Use \\<match \\*\\*\\> and chunk\\_limit\\_size \\[x\\]');
    expect(escapeMarkdown('# not a heading')).toBe('\\# not a heading');
  });
});
