import { describe, expect, it } from 'vitest';
import { imageSourceOf, tileSourceOf } from '../../src/server/lib/csp-sources';

/** Image sources of the console's CSP, named from configured addresses: a scheme, a host and a port only. */
describe('CSP sources', () => {
  it('names a tile template by its host, a {s} subdomain as *.', () => {
    expect(tileSourceOf('https://tiles.example.cn/{z}/{x}/{y}.png')).toBe('https://tiles.example.cn');
    expect(tileSourceOf('https://Tiles.Example.cn:8443/{z}/{x}/{y}.png')).toBe('https://tiles.example.cn:8443');
    expect(tileSourceOf('https://webrd0{s}.is.autonavi.com/appmaptile?x={x}&y={y}&z={z}')).toBe('https://*.is.autonavi.com');
  });

  it('refuses a tile host it cannot name without allowing far more', () => {
    expect(tileSourceOf('https://{s}.cn/{z}/{x}/{y}.png')).toBeNull();
    expect(tileSourceOf('https://tiles.{s}.cn/{z}/{x}/{y}.png')).toBeNull();
    expect(tileSourceOf('https://user@tiles.example.cn/{z}/{x}/{y}.png')).toBeNull();
    expect(tileSourceOf('http://tiles.example.cn/{z}/{x}/{y}.png')).toBeNull();
  });

  it("names an image address by its origin, and nothing a header would read as more than one source", () => {
    expect(imageSourceOf('https://cdn.example.cn/qr/bus.png?v=2')).toBe('https://cdn.example.cn');
    expect(imageSourceOf('http://10.0.0.5:8080/qr.png')).toBe('http://10.0.0.5:8080');
    expect(imageSourceOf('https://例子.cn/qr.png')).toBe('https://xn--fsqu00a.cn');
    for (const odd of ['https://a;script-src *.evil.cn/x', 'https://ex.cn"/x', 'https://a*b.cn/', 'http://[::1]/qr.png', 'data:image/png;base64,AAAA', 'javascript:alert(1)', 'not a url']) {
      expect(imageSourceOf(odd), odd).toBeNull();
    }
  });
});
