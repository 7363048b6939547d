import { describe, expect, it } from 'vitest';
import { THEME_PRESETS } from '../../src/client/app/settings';
import { contrast, strongShade, tintOf } from '../../src/client/lib/theme-colour';

describe('the theme’s text shade', () => {
  it('matches WCAG’s own figures', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#1890ff', '#ffffff')).toBeCloseTo(3.24, 2);
  });

  it.each(THEME_PRESETS)('%s: its strong shade reads at 4.5:1 on white and on its own tint, white reads on it', (theme) => {
    const strong = strongShade(theme);
    expect(contrast(strong, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(contrast(strong, tintOf(theme))).toBeGreaterThanOrEqual(4.5);
  });

  it('keeps a dark theme as it is and darkens the default blue only as far as needed', () => {
    expect(strongShade('#304156')).toBe('#304156');
    const blue = strongShade('#1890ff');
    expect(contrast(blue, '#ffffff')).toBeLessThan(5.6);
  });
});
