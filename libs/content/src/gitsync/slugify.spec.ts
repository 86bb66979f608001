import { claimUniqueSlug, slugFromFileName, slugify } from './slugify';

describe('slugify', () => {
  it.each([
    ['What is GitBook?', 'what-is-gitbook'],
    ['👋 Welcome to Nois Network', 'welcome-to-nois-network'],
    ['❓ FAQ', 'faq'],
    ['SSO & SAML', 'sso-saml'],
    ["What's new", 'whats-new'],
    ['Café crème', 'cafe-creme'],
    ['4.3. 函數呼叫', '4.3.-函數呼叫'],
    ['Install by RPM Package (Red Hat Linux)', 'install-by-rpm-package-red-hat-linux'],
    ['🎉', ''],
  ])('%s -> %s', (title, slug) => {
    expect(slugify(title)).toBe(slug);
  });

  it('caps slugs at 100 characters without a trailing dash', () => {
    const slug = slugify(`${'a'.repeat(99)} b`);
    expect(slug).toBe('a'.repeat(99));
  });
});

describe('slugFromFileName', () => {
  it.each([
    ['how-it-works.md', 'how-it-works'],
    ['01_intro-whatis.md', '01_intro-whatis'],
    ['4.3.-han-shu-hu-jiao.md', '4.3.-han-shu-hu-jiao'],
    ['Getting Started.MD', 'getting-started'],
    ['service_discovery', 'service_discovery'],
    ['頁面.md', '頁面'],
    ['35.13.-c++-applications.md', '35.13.-c++-applications'],
  ])('%s -> %s', (name, slug) => {
    expect(slugFromFileName(name)).toBe(slug);
  });
});

describe('claimUniqueSlug', () => {
  it('numbers repeated slugs among siblings', () => {
    const taken = new Set<string>();
    expect(['a', 'a', 'a', 'b'].map((s) => claimUniqueSlug(s, taken))).toEqual(['a', 'a-1', 'a-2', 'b']);
  });
});
