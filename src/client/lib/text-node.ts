/*
 * Text for the libraries that write a string as HTML: Leaflet's tooltips and popups (and divIcon's
 * html), ECharts' HTML tooltips. A name a user typed handed over as a string would become markup:
 * `<img src=…>` fetched by everyone who hovers it, `<iframe src=…>` drawn in the tooltip. These give
 * them an element holding the text as text instead. eslint.config.js refuses those calls and options
 * without them.
 */

/** An element showing each line as text, the lines separated by <br>. */
export function textBlock(lines: string | readonly string[], className?: string): HTMLElement {
  const box = document.createElement('div');
  if (className) box.className = className;
  (typeof lines === 'string' ? [lines] : lines).forEach((line, i) => {
    if (i) box.append(document.createElement('br'));
    // append(string) adds a Text node: the browser never parses it.
    box.append(line);
  });
  return box;
}

/** An ECharts tooltip formatter from the lines to show: the tooltip gets them as text. */
export function textTooltip<P>(lines: (params: P) => readonly string[]): (params: P) => HTMLElement {
  return (params) => textBlock(lines(params));
}
