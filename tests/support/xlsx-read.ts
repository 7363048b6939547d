import yauzl from 'yauzl';

/** Opens an xlsx as a spreadsheet program would (zip, then the sheet XML) and returns its cells as text. */
export async function readXlsx(buf: Buffer): Promise<{ sheetName: string; rows: string[][] }> {
  const files = await unzip(buf);
  for (const name of ['[Content_Types].xml', '_rels/.rels', 'xl/workbook.xml', 'xl/_rels/workbook.xml.rels', 'xl/worksheets/sheet1.xml']) {
    if (!files.has(name)) throw new Error(`xlsx without ${name}`);
  }
  const sheetName = /<sheet name="([^"]*)"/.exec(files.get('xl/workbook.xml')!)?.[1] ?? '';
  const xml = files.get('xl/worksheets/sheet1.xml')!;
  const unescape = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
  const rows: string[][] = [];
  for (const [, body] of xml.matchAll(/<row r="\d+">(.*?)<\/row>/gs)) {
    const row: string[] = [];
    for (const [, ref, cell] of body!.matchAll(/<c r="([A-Z]+)\d+"[^>]*>(.*?)<\/c>/gs)) {
      const col = [...ref!].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) - 1;
      row[col] = unescape(/<t[^>]*>(.*?)<\/t>/s.exec(cell!)?.[1] ?? /<v>(.*?)<\/v>/s.exec(cell!)?.[1] ?? '');
    }
    rows.push(Array.from(row, (v) => v ?? ''));
  }
  return { sheetName, rows };
}

function unzip(buf: Buffer): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buf, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error('not a zip'));
      const files = new Map<string, string>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e ?? new Error('unreadable entry'));
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            files.set(entry.fileName, Buffer.concat(chunks).toString('utf8'));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(files));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}
