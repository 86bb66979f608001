import { SiteCustomization } from './site.events';

/**
 * Every setting GitBook's SiteCustomizationSettings requires, with GitBook's defaults: a new
 * site answers a complete object, which GitBook's renderer needs to draw any page.
 */
export function defaultSiteCustomization(): SiteCustomization {
  const themed = (light: string, dark = light) => ({ light, dark });
  const codeTheme = { light: 'default-light', dark: 'default-dark' };
  return {
    styling: {
      theme: 'clean',
      primaryColor: themed('#346DDB'),
      infoColor: themed('#787878'),
      warningColor: themed('#FE9A00'),
      dangerColor: themed('#FB2C36'),
      successColor: themed('#00C950'),
      corners: 'rounded',
      depth: 'subtle',
      links: 'default',
      font: 'Inter',
      monospaceFont: 'IBMPlexMono',
      background: 'plain',
      icons: 'regular',
      codeTheme: { default: codeTheme, openapi: codeTheme },
      sidebar: { background: 'default', list: 'default' },
      search: 'subtle',
    },
    internationalization: { locale: 'en' },
    favicon: {},
    header: { preset: 'default', links: [] },
    footer: { groups: [] },
    themes: { default: 'light', toggeable: true },
    feedback: { enabled: false },
    ai: { mode: 'none' },
    advancedCustomization: { enabled: true },
    pageActions: { items: [] },
    externalLinks: { target: 'self' },
    pagination: { enabled: true },
    // No "Powered by GitBook" mark on a self-hosted site.
    trademark: { enabled: false },
    privacyPolicy: {},
    socialPreview: {},
    socialAccounts: [],
    insights: { trackingCookie: false },
  };
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The settings after an update: objects merge key by key, anything else (strings, arrays)
 * replaces, so a client may send only what it changes while the result stays complete.
 */
export function mergeSiteCustomization(current: SiteCustomization, input: Record<string, unknown>): SiteCustomization {
  const out: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined) continue;
    out[key] = isPlainObject(value) && isPlainObject(out[key]) ? mergeSiteCustomization(out[key] as SiteCustomization, value) : value;
  }
  return out;
}
