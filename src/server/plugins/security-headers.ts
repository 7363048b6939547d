import { createHash } from 'node:crypto';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import { isApiPath } from './envelope';

/** `'sha256-…'` of every inline script of the console page (the theme applied before first paint). */
export function inlineScriptHashes(html: string | null): string[] {
  if (!html) return [];
  return [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi)].map(
    (m) => `'sha256-${createHash('sha256').update(m[1] ?? '').digest('base64')}'`,
  );
}

/**
 * Helmet's defaults (nosniff, frame and referrer policies, cross-origin policies, …) plus a strict
 * Content-Security-Policy for the console: scripts only from this origin or the page's own hashed
 * inline script (no eval: the console runs zod jitless), no framing, no plugins; images may be data: or https: (the sidebar's QR code can
 * be either). API answers are never stored by caches: they carry accounts and personal data.
 */
export async function registerSecurityHeaders(app: FastifyInstance, indexHtml: string | null): Promise<void> {
  await app.register(helmet, {
    global: true,
    referrerPolicy: { policy: 'same-origin' },
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...inlineScriptHashes(indexHtml)],
        // The palette's dialog locks page scroll with a <style> element it writes at run time
        // (react-remove-scroll); styles cannot run code, scripts stay strict.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'https:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
  });
  app.addHook('onSend', async (req, reply) => {
    if (isApiPath(req.url)) reply.header('cache-control', 'no-store');
  });
}
