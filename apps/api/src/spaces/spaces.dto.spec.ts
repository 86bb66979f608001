import { emojiInput, isEmoji } from './spaces.dto';

describe('emojiInput (GitBook Emoji)', () => {
  it.each(['1f600', '1F600', '1f468-200d-1f4bb', '1f1eb-1f1f7', '0023-fe0f-20e3', '23-20e3', '2764-fe0f', 'a9', '1f44d-1f3fd', '1f3f4-e0067-e0062-e0065-e006e-e0067-e007f', '🎉', '👍🏽', '👨‍💻', '🇫🇷', '#️⃣'])(
    'accepts %j',
    (value) => {
      expect(isEmoji(value)).toBe(true);
      expect(emojiInput.safeParse(value).success).toBe(true);
    },
  );

  it.each(['abc', 'ff', '1234', '#', '', '1f600-zz', '110000', 'd800', '1f3fd', '200d', '23', 'a', '😀 ', 'x'.repeat(60)])('rejects %j', (value) => {
    expect(emojiInput.safeParse(value).success).toBe(false);
  });
});
