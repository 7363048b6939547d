/*
 * Content-Security-Policy sources named from addresses the operator configures: only a scheme, a
 * host and a port ever reach the header, nothing a browser would read as another token or directive.
 */

export const SOURCE = /^https?:\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?$/;

/** The CSP source of an image address (the sidebar's QR code): its origin, or null for one a policy cannot name. */
export function imageSourceOf(address: string): string | null {
  if (!/^https?:\/\//i.test(address)) return null;
  try {
    const { origin } = new URL(address);
    return SOURCE.test(origin) ? origin : null;
  } catch {
    return null;
  }
}

/**
 * The CSP source of an XYZ tile template (MAP_TILE_URL): its origin, a `{s}` subdomain (or any
 * placeholder in the host's leading labels) as `*.`; null when the host cannot be named that way.
 */
export function tileSourceOf(template: string): string | null {
  const host = /^https:\/\/([^/?#]+)/i.exec(template)?.[1]?.toLowerCase();
  if (!host) return null;
  const labels = host.split('.');
  const lastTemplated = labels.findLastIndex((l) => l.includes('{'));
  // `*.com` would be every site: at least a registrable-looking name must stay fixed.
  if (lastTemplated >= 0 && labels.length - lastTemplated - 1 < 2) return null;
  const source = lastTemplated < 0 ? `https://${host}` : `https://*.${labels.slice(lastTemplated + 1).join('.')}`;
  return SOURCE.test(source) ? source : null;
}
