import MarkdownIt from 'markdown-it';
import { useFastParserState } from './fast-parser-state';

const SAMPLES = [
  '# Title\n\nText with **bold**, *em*, `code`, ~~del~~, [link](a.md "t"), ![img](i.png) and <b>html</b>.\n',
  '* a\n* b\n  1. c\n  2. d\n\n> quote\n> > nested\n\n---\n\n```js\nx\n```\n\n    indented\n',
  '| a | b |\n| :-- | --: |\n| `x\\|y` | <br> |\n\n<details>\n<summary>s</summary>\n\nbody\n\n</details>\n',
  'Setext\n===\n\n[ref]: https://e.com\n\nUse [ref] and <https://auto.link> and &amp; &#x20; \\* escapes.\nhard  \nbreak\\\nend\n',
  '\t\ttabs\n  \tmixed\n\n1) paren\n\n- [ ] task\n\n<!-- comment -->\n\n中文 😀 \u0000 \r\n crlf\r\n',
];

const stockTokenPrototype: object = Object.getPrototypeOf(new MarkdownIt().parse('x', {})[0]);

function tokensOf(md: MarkdownIt.MarkdownIt, src: string): unknown {
  const describeToken = (token: MarkdownIt.Token): unknown => ({
    ownFields: Object.keys(token),
    stockPrototype: Object.getPrototypeOf(token) === stockTokenPrototype,
    ...token,
    children: token.children?.map(describeToken) ?? null,
  });
  return md.parse(src, {}).map(describeToken);
}

describe('useFastParserState', () => {
  it('produces the same tokens, with the same fields and prototype, as a stock instance', () => {
    const stock = new MarkdownIt({ html: true });
    const fast = new MarkdownIt({ html: true });
    useFastParserState(fast);

    for (const sample of SAMPLES) expect(tokensOf(fast, sample)).toEqual(tokensOf(stock, sample));
  });

  it('renders the same HTML as a stock instance', () => {
    const stock = new MarkdownIt({ html: true });
    const fast = new MarkdownIt({ html: true });
    useFastParserState(fast);

    for (const sample of SAMPLES) expect(fast.render(sample)).toBe(stock.render(sample));
  });

  it('changes only the instance it is given', () => {
    const fast = new MarkdownIt();
    const other = new MarkdownIt();
    useFastParserState(fast);

    expect(other.block.State).not.toBe(fast.block.State);
    expect(other.inline.State).not.toBe(fast.inline.State);
  });
});
