import { formatLiquidTag, scanLiquidTag } from './liquid-tags';

describe('scanLiquidTag', () => {
  it('reads the name and attributes of an opening tag', () => {
    expect(scanLiquidTag('{% code title="a.js" lineNumbers=true %} rest', 0)).toEqual({
      name: 'code',
      isEnd: false,
      attrs: { title: 'a.js', lineNumbers: 'true' },
      raw: '{% code title="a.js" lineNumbers=true %}',
      end: 40,
    });
  });

  it('reads end tags, single quotes, whitespace control and quoted %}', () => {
    expect(scanLiquidTag('{%- endhint -%}', 0)).toMatchObject({ name: 'hint', isEnd: true });
    expect(scanLiquidTag("{% hint style='info' %}", 0)?.attrs).toEqual({ style: 'info' });
    expect(scanLiquidTag('{% tab title="50%} off" %}', 0)?.attrs).toEqual({ title: '50%} off' });
  });

  it('keeps positional arguments out of the attributes', () => {
    expect(scanLiquidTag('{% include "a.md" %}', 0)).toMatchObject({ name: 'include', attrs: {} });
  });

  it('returns null for anything that is not a complete tag', () => {
    for (const text of ['{% hint', '{%%}', '{ % hint %}', '{% "x" %}', '{% tab title="open %}']) expect(scanLiquidTag(text, 0)).toBeNull();
  });
});

describe('formatLiquidTag', () => {
  it('writes attributes in order, leaving out undefined and false', () => {
    expect(formatLiquidTag('code', [['title', 'x'], ['overflow', undefined], ['lineNumbers', 'true'], ['fullWidth', false]])).toBe('{% code title="x" lineNumbers="true" %}');
  });

  it('quotes values so that scanLiquidTag reads them back', () => {
    for (const value of ['plain', 'with "double"', "with 'single'", `both " and ' and \\`]) {
      const tag = formatLiquidTag('tab', [['title', value]]);
      expect(scanLiquidTag(tag, 0)?.attrs.title).toBe(value);
    }
  });
});
