import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * eslint.config.js refuses, in the console's code, the calls and options that parse a string as
 * HTML (issue 19: a station named `<img src=…>` was fetched by every viewer of the map). Each
 * sample is linted as if it were a file of the console.
 */
const root = path.resolve(__dirname, '../..');
const eslint = new ESLint({ cwd: root });

async function refused(code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, 'src/client/components/sample.tsx') });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
}

describe('HTML sinks in the console', () => {
  it.each([
    ['a string tooltip', 'marker.bindTooltip(name, { direction: "top" });'],
    ['a template popup', 'marker.bindPopup(`<b>${name}</b>`);'],
    ['new tooltip content', 'tip.setContent(name);'],
    ['a divIcon with html', 'L.divIcon({ html: name });'],
    ['an attribution from a variable', 'L.tileLayer(url, { attribution: source });'],
    ['an ECharts tooltip formatter function', 'chart.setOption({ tooltip: { formatter: (p) => `${p.name}<br/>` } });'],
    ['an ECharts tooltip template', "chart.setOption({ tooltip: { formatter: '{b}: {c}' } });"],
    ['innerHTML', 'el.innerHTML = name;'],
    ['insertAdjacentHTML', "el.insertAdjacentHTML('beforeend', name);"],
    ['dangerouslySetInnerHTML', 'const x = <div dangerouslySetInnerHTML={{ __html: name }} />;'],
    ['document.write', 'document.write(name);'],
  ])('refuses %s', async (_name, code) => {
    expect(await refused(code)).toHaveLength(1);
  });

  it.each([
    ['a tooltip of text', 'marker.bindTooltip(textBlock(name), { direction: "top" });'],
    ['an ECharts tooltip of text', 'chart.setOption({ tooltip: { formatter: textTooltip((p) => [p.name]) } });'],
    ["a series label's formatter (drawn as SVG text)", 'chart.setOption({ series: [{ label: { formatter: (p) => `${p.name}\\n` } }] });'],
    ['textContent', 'el.textContent = name;'],
    ['a fixed attribution', "L.tileLayer(url, { attribution: '© 高德地图' });"],
  ])('allows %s', async (_name, code) => {
    expect(await refused(code)).toEqual([]);
  });
});
