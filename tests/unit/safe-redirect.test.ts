import { describe, expect, it } from 'vitest';
import { safeRedirect } from '../../src/client/lib/safe-redirect';

/**
 * The redirect targets the console follows after login and on /redirect/{path}: each value is what
 * the page holds after the query has been decoded once. Whatever comes back, the browser must stay
 * on the console's origin when it follows it; the second table says where it lands.
 */

const ORIGIN = 'http://localhost:8080';

const hostile: Array<[string, string | null | undefined]> = [
  ['missing', null],
  ['undefined', undefined],
  ['empty', ''],
  ['protocol-relative //host', '//evil.example/x'],
  ['/\\host: the parser reads \\ as /', '/\\evil.example'],
  ['/\\/host', '/\\/evil.example'],
  ['\\/host', '\\/evil.example'],
  ['/%09/host once decoded: the parser drops the tab', '/\t/evil.example'],
  ['/%0A/host once decoded: the parser drops the newline', '/\n/evil.example'],
  ['/%0D%0A/host once decoded', '/\r\n/evil.example'],
  ['%2F%5C127.0.0.2%3A9%2Fx once decoded (the reported case)', '/\\127.0.0.2:9/x'],
  ['/./\\host', '/./\\evil.example'],
  ['/.//host: dot segments collapse into //host', '/.//evil.example/x'],
  ['/..//host', '/..//evil.example/x'],
  ['absolute other origin', 'https://evil.example'],
  ['same host, other port', 'http://localhost:9/x'],
  ['javascript: URL', 'javascript:alert(1)'],
  ['data: URL', 'data:text/html,<script>alert(1)</script>'],
  ['leading space before a path', ' /user/user-list'],
  ['leading space before //host', ' //evil.example'],
  ['leading tab before //host', '\t//evil.example'],
  ['leading newline before /\\host', '\n/\\evil.example'],
  // The console only writes paths into `redirect`: an absolute URL, even our own, is refused.
  ['absolute URL of our own origin', 'http://localhost:8080/user/user-list'],
];

const kept: Array<[string, string, string]> = [
  ['path, query and hash kept whole', '/user/user-list?page=2#x', '/user/user-list?page=2#x'],
  ['home', '/', '/'],
  ['query with an encoded & and =', '/user/sys-log?keyword=a%26b%3Dc&page=2', '/user/sys-log?keyword=a%26b%3Dc&page=2'],
  // %255C decoded once is %5C: an ordinary (odd) path segment on our origin, not a backslash.
  ['%255C decoded once stays an encoded path segment', '/%5C127.0.0.2:9/x', '/%5C127.0.0.2:9/x'],
  ['dot segments that stay on a path are normalised', '/user/../user/user-list', '/user/user-list'],
  ['a space inside the path is encoded, not refused', '/user/a b', '/user/a%20b'],
];

describe('safeRedirect(): every result stays on the console origin', () => {
  it.each([...hostile.map(([name, value]) => [name, value] as const), ...kept.map(([name, value]) => [name, value] as const)])(
    '%s',
    (_name, value) => {
      const result = safeRedirect(value, ORIGIN);
      expect(result.startsWith('/')).toBe(true);
      expect(result.startsWith('//')).toBe(false);
      expect(new URL(result, ORIGIN).origin).toBe(ORIGIN);
    },
  );
});

describe('safeRedirect(): hostile or malformed targets go home', () => {
  it.each(hostile)('%s → /', (_name, value) => {
    expect(safeRedirect(value, ORIGIN)).toBe('/');
  });
});

describe('safeRedirect(): same-origin paths land where they say', () => {
  it.each(kept)('%s', (_name, value, expected) => {
    expect(safeRedirect(value, ORIGIN)).toBe(expected);
  });

  it('uses the origin it is given, not a fixed one', () => {
    expect(safeRedirect('/x?y=1#z', 'https://bus.example:8443')).toBe('/x?y=1#z');
    expect(safeRedirect('//bus.example:8443/x', 'https://bus.example:8443')).toBe('/');
  });

  it('an origin given with a trailing slash or its default port is the same origin', () => {
    expect(safeRedirect('/x?y=1', 'https://bus.example/')).toBe('/x?y=1');
    expect(safeRedirect('/x?y=1', 'https://bus.example:443')).toBe('/x?y=1');
  });
});
