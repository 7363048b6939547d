import { createHash } from 'node:crypto';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import { SOURCE, tileSourceOf } from '../lib/csp-sources';
import { isApiPath } from './envelope';

/** `'sha256-…'` of every inline script of the console page (the theme applied before first paint). */
export function inlineScriptHashes(html: string | null): string[] {
  if (!html) return [];
  return [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi)].map(
    (m) => `'sha256-${createHash('sha256').update(m[1] ?? '').digest('base64')}'`,
  );
}

export interface ConsolePolicy {
  /** Every answer's policy: images from this origin, data: and the map tiles. */
  base: string;
  /** The console page's policy, with the images the page shows from elsewhere (the QR code's origin). */
  withImages(sources: readonly string[]): string;
}

/**
 * The Content-Security-Policy of the console. Scripts only from this origin or the page's own
 * hashed inline script (no eval: the console runs zod jitless), no plugins, no framing either way.
 * Images from this origin, data: (QR codes drawn in the browser, inline uploads), the configured
 * tile server, and on the page the QR code's origin: not any https address, so markup that slipped
 * into the page cannot send what it reads to a server of its choosing. Frames and workers: none, the
 * console has neither, so a frame in markup loads nothing (not even our own login page).
 */
export function consolePolicy(indexHtml: string | null, tileUrl: string | null): ConsolePolicy {
  const tiles = tileUrl ? tileSourceOf(tileUrl) : null;
  const build = (images: readonly string[]) =>
    Object.entries({
      'default-src': ["'self'"],
      'script-src': ["'self'", ...inlineScriptHashes(indexHtml)],
      // The palette's dialog locks page scroll with a <style> element it writes at run time
      // (react-remove-scroll); styles cannot run code, scripts stay strict.
      'style-src': ["'self'", "'unsafe-inline'"],
      'img-src': [...new Set(["'self'", 'data:', ...(tiles ? [tiles] : []), ...images])],
      'font-src': ["'self'", 'data:'],
      'connect-src': ["'self'"],
      'frame-src': ["'none'"],
      'child-src': ["'none'"],
      'worker-src': ["'none'"],
      'object-src': ["'none'"],
      'base-uri': ["'self'"],
      'form-action': ["'self'"],
      'frame-ancestors': ["'none'"],
    })
      .map(([name, values]) => `${name} ${values.join(' ')}`)
      .join('; ');
  const base = build([]);
  return { base, withImages: (sources) => (sources.length ? build(sources.filter((s) => SOURCE.test(s))) : base) };
}

/**
 * Helmet's defaults (nosniff, frame and referrer policies, cross-origin policies, …) plus the
 * console's Content-Security-Policy on every answer; the console page replaces it with its own
 * (`withImages`). API answers are never stored by caches: they carry accounts and personal data.
 */
export async function registerSecurityHeaders(app: FastifyInstance, policy: ConsolePolicy): Promise<void> {
  await app.register(helmet, { global: true, referrerPolicy: { policy: 'same-origin' }, contentSecurityPolicy: false });
  app.addHook('onRequest', async (_req, reply) => {
    reply.header('content-security-policy', policy.base);
  });
  app.addHook('onSend', async (req, reply) => {
    if (isApiPath(req.url)) reply.header('cache-control', 'no-store');
  });
}
