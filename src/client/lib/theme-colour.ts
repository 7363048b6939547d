/**
 * Text must reach 4.5:1 (WCAG AA) whatever theme the user picked: the brand colour itself stays for
 * borders, focus rings and tints, and a darker shade of it, computed here, is used for text on
 * white or on the brand's own light tint, and as the fill behind white text.
 */

type Rgb = readonly [number, number, number];

const parse = (hex: string): Rgb | null => {
  const m = /^#([0-9a-f]{6})$/i.exec(hex.trim());
  if (!m?.[1]) return null;
  const n = Number.parseInt(m[1], 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
};

const toHex = (c: Rgb) => `#${c.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;

/** WCAG 2 relative luminance. */
function luminance([r, g, b]: Rgb): number {
  const lin = (v: number) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

export function contrast(a: string, b: string): number {
  const x = parse(a);
  const y = parse(b);
  if (!x || !y) return 1;
  const [hi, lo] = [luminance(x), luminance(y)].sort((p, q) => q - p) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const mix = (c: Rgb, toward: Rgb, t: number): Rgb => [0, 1, 2].map((i) => c[i]! + (toward[i]! - c[i]!) * t) as unknown as Rgb;

/** The theme's 10% tint over white: the background of selected rows and chips. */
export const tintOf = (hex: string): string => toHex(mix(parse(hex) ?? [24, 144, 255], [255, 255, 255], 0.9));

/**
 * The lightest shade of `hex` (mixed toward black) that reads at `min`:1 on white and on the
 * theme's own tint. The default #1890ff gives #0f6cc7-ish; a dark theme stays as it is.
 */
export function strongShade(hex: string, min = 4.6): string {
  const base = parse(hex);
  if (!base) return hex;
  const tint = tintOf(hex);
  for (let t = 0; t <= 1; t += 0.02) {
    const c = toHex(mix(base, [0, 0, 0], t));
    if (contrast(c, '#ffffff') >= min && contrast(c, tint) >= min) return c;
  }
  return '#000000';
}
