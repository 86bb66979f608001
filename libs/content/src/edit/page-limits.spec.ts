import { DomainError } from '@quire/domain';
import { assertWithinPageLimits } from './page-limits';

const limits = { maxBytes: 10_000, maxBlocks: 50 };
const failure = (text: string) => {
  try {
    assertWithinPageLimits(text, limits, 'changes[0] (insert_page)');
  } catch (error) {
    return error as DomainError;
  }
  return undefined;
};

describe('assertWithinPageLimits', () => {
  it('accepts a page within both limits', () => {
    expect(failure('---\ndescription: x\n---\n\n# Title\n\n' + '## Heading\n\nText.\n\n'.repeat(24))).toBeUndefined();
  });

  it('refuses too many blocks at any depth, with a 400 that says how many', () => {
    const error = failure('# Title\n\n' + '- item\n'.repeat(60));
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'bad_request' });
    expect(error!.message).toBe('changes[0] (insert_page): the page has 122 blocks; a page may hold at most 50 blocks (split it into several pages)');
  });

  it('refuses a page longer than the byte limit, counted in UTF-8', () => {
    expect(failure('é'.repeat(5_001))!.message).toBe('changes[0] (insert_page): the page is 10002 bytes long; a page may hold at most 10000 bytes (split it into several pages)');
  });

  it('does not count front matter as blocks', () => {
    expect(failure(`---\n${Array.from({ length: 60 }, (_, i) => `k${i}: v`).join('\n')}\n---\n\n# Title\n`)).toBeUndefined();
  });
});
