import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import yazl from 'yazl';

/**
 * A streaming xlsx writer: the sheet's XML is generated row by row from an async source and
 * deflated into the zip as it goes, so memory stays flat however many rows there are (exceljs's
 * streaming writer held hundreds of MB for a million rows). Strings are written inline (no shared
 * string table to keep in memory). See README decision 64.
 */

export type Cell = string | number | null | undefined;

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
// Characters XML 1.0 cannot carry at all; a value containing them would make the file unreadable.
const INVALID_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

/**
 * A text cell that a spreadsheet (or a CSV made from it) could read as a formula gets a leading
 * apostrophe: =, +, -, @ and the control characters tab and carriage return (OWASP CSV injection).
 */
export function escapeFormula(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

const escapeXml = (s: string) => s.replace(INVALID_XML, '').replace(/[&<>"]/g, (c) => XML_ESCAPES[c]!);

function column(i: number): string {
  let s = '';
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

function rowXml(r: number, cells: readonly Cell[]): string {
  let xml = `<row r="${r}">`;
  cells.forEach((v, i) => {
    if (v === null || v === undefined || v === '') return;
    const ref = `${column(i)}${r}`;
    xml += typeof v === 'number' && Number.isFinite(v) ? `<c r="${ref}"><v>${v}</v></c>` : `<c r="${ref}" t="inlineStr"><is><t xml:space="preserve">${escapeXml(escapeFormula(String(v)))}</t></is></c>`;
  });
  return `${xml}</row>`;
}

async function* sheetXml(header: readonly string[], widths: readonly number[], rows: AsyncIterable<readonly Cell[]>): AsyncGenerator<string> {
  const cols = widths.map((w, i) => `<col min="${i + 1}" max="${i + 1}" width="${w}" customWidth="1"/>`).join('');
  yield `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>${cols ? `<cols>${cols}</cols>` : ''}<sheetData>`;
  yield rowXml(1, header);
  let r = 2;
  let batch = '';
  for await (const cells of rows) {
    batch += rowXml(r++, cells);
    // Hand the zip ~64 kB at a time: fewer, larger writes, still a flat memory profile.
    if (batch.length > 65_536) {
      yield batch;
      batch = '';
    }
  }
  yield `${batch}</sheetData></worksheet>`;
}

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`;
const ROOT_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
const WORKBOOK_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`;
const workbook = (sheet: string) => `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="${escapeXml(sheet.replace(/[\\/?*[\]:]/g, ' ').slice(0, 31))}" sheetId="1" r:id="rId1"/></sheets></workbook>`;

export interface SheetSpec {
  sheet: string;
  columns: readonly { title: string; width?: number }[];
  rows: AsyncIterable<readonly Cell[]>;
}

/** The xlsx file as a byte stream; errors of the row source end the stream with that error. */
export function xlsxStream(spec: SheetSpec): NodeJS.ReadableStream {
  const zip = new yazl.ZipFile();
  const fixed = { mtime: new Date(Date.UTC(2020, 0, 1)) };
  zip.addBuffer(Buffer.from(CONTENT_TYPES), '[Content_Types].xml', fixed);
  zip.addBuffer(Buffer.from(ROOT_RELS), '_rels/.rels', fixed);
  zip.addBuffer(Buffer.from(workbook(spec.sheet)), 'xl/workbook.xml', fixed);
  zip.addBuffer(Buffer.from(WORKBOOK_RELS), 'xl/_rels/workbook.xml.rels', fixed);
  const sheet = Readable.from(sheetXml(spec.columns.map((c) => c.title), spec.columns.map((c) => c.width ?? 14), spec.rows));
  sheet.on('error', (err) => zip.outputStream.emit('error', err));
  zip.addReadStream(sheet, 'xl/worksheets/sheet1.xml', fixed);
  zip.end();
  return zip.outputStream;
}

/** `attachment` with the UTF-8 name (RFC 5987) and an ASCII fallback for old clients. */
export function attachmentHeader(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/** Answers a request with a streamed xlsx download (never cached). */
export function sendXlsx(reply: FastifyReply, fileName: string, spec: SheetSpec) {
  reply.header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet').header('content-disposition', attachmentHeader(fileName)).header('cache-control', 'no-store');
  return reply.send(xlsxStream(spec));
}
