/**
 * Where the console may send the browser when the target comes from the URL (`?redirect=` after
 * login, `/redirect/{path}`): a path on the console's own origin, never another host.
 *
 * A prefix check on the raw string is not enough: the browser's URL parser turns `/\host` into
 * `//host` and drops tabs and newlines anywhere, so `/\evil`, `/\t/evil` or `/\/evil` all pass
 * `startsWith('/') && !startsWith('//')` and then leave. So the candidate is resolved with the
 * same WHATWG parser the browser will use, and the origin of the result decides.
 *
 * Absolute URLs are refused even when they name our own origin: the console itself only ever
 * writes paths into `redirect`, so an absolute one was typed by someone else, and refusing it keeps
 * the rule to "a path, or home".
 */

const HOME = '/';

export function safeRedirect(candidate: string | null | undefined, origin: string = window.location.origin): string {
  // The raw value must be a path: a leading space, `\`, scheme or `//` is refused before parsing,
  // because the parser would forgive (strip or rewrite) exactly those.
  if (!candidate || candidate[0] !== '/' || candidate[1] === '/' || candidate[1] === '\\') return HOME;
  let own: string;
  let resolved: URL;
  try {
    // Compared as the parser serialises it, so `http://host:80/` and `http://host` are one origin.
    own = new URL(origin).origin;
    resolved = new URL(candidate, own);
  } catch {
    return HOME;
  }
  if (resolved.origin !== own) return HOME;
  const target = resolved.pathname + resolved.search + resolved.hash;
  // Dot segments can collapse into a leading `//` (`/.//evil` has the pathname `//evil`), which the
  // browser would read as another host once this string is followed: check the output as well.
  if (target.startsWith('//') || new URL(target, own).origin !== own) return HOME;
  return target;
}
