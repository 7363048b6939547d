import { FilterXSS } from 'xss';

/**
 * The rich text riders and staff read (公告, 帮助文档): one allow-list, applied by the server before a
 * text is stored and again by the console before it is shown, so markup that slipped in some other
 * way (an old row, a hand-edited database) still cannot run. js-xss (`xss` on npm) parses and
 * rebuilds the markup; everything not listed here is dropped, and the bodies of script-like elements
 * with it (a `<script>`'s text shown as words would still be noise).
 */

/** What the editor makes: paragraphs, bold and italics, two heading levels, lists, links, quotes. */
const ALLOW_LIST: Record<string, string[]> = {
  p: [],
  br: [],
  strong: [],
  b: [],
  em: [],
  i: [],
  u: [],
  s: [],
  h2: [],
  h3: [],
  h4: [],
  ul: [],
  ol: [],
  li: [],
  blockquote: [],
  hr: [],
  code: [],
  pre: [],
  a: ['href', 'title'],
};

/** Elements removed with everything inside them, never shown as text. */
const DROPPED_WITH_BODY = ['script', 'style', 'iframe', 'frame', 'frameset', 'object', 'embed', 'svg', 'math', 'noscript', 'template', 'textarea', 'select', 'title', 'xmp', 'noembed', 'noframes'];

/** Where a link may go: the web, mail and phone. No `javascript:`, `data:`, `vbscript:` or relative tricks. */
const SAFE_HREF = /^(https?:\/\/|mailto:|tel:)/i;

/**
 * The link as written in the markup (entities left as they are), or null. Entities and control
 * characters are how `java&#x09;script:` gets past a naive check, so a scheme written with an entity
 * is refused outright rather than decoded the way some browser might.
 */
export function safeHref(raw: string): string | null {
  const value = raw.replace(/[\u0000-\u0020\u007f-\u009f]/g, '');
  const colon = value.indexOf(':');
  if (colon < 0 || value.slice(0, colon).includes('&')) return null;
  return SAFE_HREF.test(value) ? value : null;
}

/** Inside a double-quoted attribute only a quote or an angle bracket could end it; `&` stays an entity. */
const attr = (v: string) => v.replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const filter = new FilterXSS({
  whiteList: ALLOW_LIST,
  stripIgnoreTag: true,
  stripIgnoreTagBody: DROPPED_WITH_BODY,
  allowCommentTag: false,
  css: false,
  onTagAttr(tag, name, value) {
    if (tag === 'a' && name === 'href') {
      const href = safeHref(value);
      return href ? `href="${attr(href)}"` : '';
    }
    return undefined;
  },
});

/** The text as the allow-list lets it through: the same answer on the server and in the console. */
export function sanitizeRichText(html: string): string {
  return filter.process(html).trim();
}

const ENTITIES: Record<string, string> = { '&nbsp;': ' ', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&amp;': '&' };

/** The words of a rich text without its markup: for emptiness, search and a list's one-line preview. */
export function richTextPlain(html: string): string {
  return html
    .replace(/<(br|\/p|\/h[1-6]|\/li|\/blockquote|\/pre|hr)[^>]*>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&(nbsp|lt|gt|quot|#39|amp);/g, (m) => ENTITIES[m] ?? m)
    .replace(/\s+/g, ' ')
    .trim();
}

/** Whether a sanitised text says anything at all (an editor's empty `<p><br></p>` does not). */
export const richTextEmpty = (html: string) => richTextPlain(html) === '' && !/<hr\b/i.test(html);

/** A plain text (the seed's, an old notice's lines) as rich text: one paragraph a line, escaped. */
export function plainToRichText(text: string): string {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => `<p>${esc(l)}</p>`)
    .join('');
}
