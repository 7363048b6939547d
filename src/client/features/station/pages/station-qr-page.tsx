import { useMemo, useState } from 'react';
import { createPortal } from 'react-dom';
import { type StationQr, station } from '../../../../shared/api';
import { Button } from '../../../components/button';
import { type Column, DataTable } from '../../../components/data-table';
import type { FilterDef } from '../../../components/filter-bar';
import { ScreenSection } from '../../../components/screen-section';
import { useTableState } from '../../../components/table-state';
import { toast } from '../../../lib/toast';
import { api } from '../../../lib/api-client';
import { useAllowed } from '../../../lib/permission';
import { useScreenAction } from '../../../lib/screen-action';
import { saveFile } from '../../../lib/save-file';
import { useApi } from '../../../lib/use-api';
import { useQrSurplus } from '../api';
import { QrImage, qrPng } from '../components/qr-image';
import { formatDateTime } from '../../../../shared/domain/time';

const FILTER_KEYS = ['name'] as const;
type FilterKey = (typeof FILTER_KEYS)[number];

/**
 * 站点二维码 (ListStationQrCode): every station's mini-program code, generated for those without one,
 * printed as an A4 sheet (3 × 4 per page, name under each) or downloaded one by one as PNG.
 */
export function StationQrPage() {
  const table = useTableState<FilterKey>({ filters: FILTER_KEYS, schema: station.stationQrPage.query });
  const codes = useApi(station.stationQrPage, { query: table.query });
  const surplus = useQrSurplus();
  const canGenerate = useAllowed(station.stationQrInit.permission);
  const [busy, setBusy] = useState(false);
  const [printing, setPrinting] = useState<readonly StationQr[] | null>(null);

  const generate = async () => {
    if (busy) return;
    setBusy(true);
    try {
      const res = await api.call(station.stationQrInit);
      toast.success(res.generated ? `已生成 ${res.generated} 个站点二维码` : '所有站点都已有二维码');
      await Promise.all([codes.mutate(), surplus.mutate()]);
    } catch {
      // The client has shown the refusal.
    } finally {
      setBusy(false);
    }
  };
  useScreenAction(['station', 'station-qr-code', 'generate'], () => void generate());

  const print = (rows: readonly StationQr[]) => {
    setPrinting(rows);
    // After the sheet is in the page: the browser's print dialog (or 另存为 PDF) takes it from there.
    setTimeout(() => {
      window.print();
      setPrinting(null);
    }, 300);
  };
  const download = async (q: StationQr) => saveFile(await qrPng(q.content, q.stationName), `${q.stationName}-${q.qrCode}.png`);
  const [exporting, setExporting] = useState(false);
  const exportExcel = async () => {
    if (exporting) return;
    setExporting(true);
    try {
      const name = table.filters.name || undefined;
      const file = await api.call(station.stationQrExport, { query: { name } });
      saveFile(file, `站点二维码-${formatDateTime(new Date(), 'YYYYMMDD-HHmm')}.xlsx`);
      toast.success('已导出站点二维码');
    } catch {
      // In the toast.
    } finally {
      setExporting(false);
    }
  };
  useScreenAction(['station', 'station-qr-code', 'export'], () => void exportExcel());

  const filters = useMemo<FilterDef<FilterKey>[]>(() => [{ key: 'name', label: '站点名称', type: 'text', placeholder: '如 人民广场', maxLength: 40 }], []);
  const columns: Column<StationQr>[] = [
    { id: 'qr', header: '二维码', fixed: true, cell: (q) => <QrImage content={q.content} label={`${q.stationName} 的二维码`} size={56} /> },
    { id: 'name', header: '站点名称', sort: 'name', cell: (q) => <span className="font-medium text-gray-800">{q.stationName}</span> },
    { id: 'code', header: '编码', cell: (q) => <code className="text-xs">{q.qrCode}</code> },
    { id: 'content', header: '内容', cell: (q) => <span className="text-xs text-gray-600">{q.content}</span> },
    {
      id: 'actions',
      header: '操作',
      fixed: true,
      cell: (q) => (
        <Button variant="text" onClick={() => void download(q)} aria-label={`下载 ${q.stationName} 的二维码`}>
          下载
        </Button>
      ),
    },
  ];

  const missing = surplus.data?.surplus ?? 0;
  return (
    <ScreenSection title="站点二维码">
      <DataTable
        id="station.qr"
        label="站点二维码列表"
        columns={columns}
        rowKey={(q) => q.stationId}
        result={codes}
        state={table}
        filters={filters}
        emptyText={missing ? `暂无数据：${missing} 个站点尚未生成二维码` : '暂无数据'}
        selection={{
          actions: (selected, clear) => (
            <>
              <Button className="h-8" onClick={() => print(selected)}>
                打印所选（{selected.length}）
              </Button>
              <Button className="h-8" onClick={clear}>
                取消选择
              </Button>
            </>
          ),
        }}
        toolbar={
          <>
            {canGenerate && (
              <Button variant="primary" className="h-8" onClick={() => void generate()} disabled={busy || !missing}>
                {busy ? '生成中…' : `生成缺少的二维码${missing ? `（${missing}）` : ''}`}
              </Button>
            )}
            <Button className="h-8" onClick={() => void exportExcel()} disabled={exporting}>
              {exporting ? '导出中…' : '导出 Excel'}
            </Button>
            <span className="text-xs text-gray-600" aria-live="polite">
              {surplus.data ? `共 ${surplus.data.total} 个站点，${missing ? `${missing} 个未生成` : '全部已生成'}` : ''}
            </span>
          </>
        }
      />
      {printing && createPortal(<PrintSheet rows={printing} />, document.body)}
    </ScreenSection>
  );
}

/** The A4 sheet that only the printer sees: 3 × 4 codes a page, each with its station's name. */
function PrintSheet({ rows }: { rows: readonly StationQr[] }) {
  return (
    <div className="qr-print-sheet hidden print:block">
      <div className="grid grid-cols-3 gap-4 p-4">
        {rows.map((q) => (
          <figure key={q.stationId} className="flex break-inside-avoid flex-col items-center gap-1 border border-gray-300 p-2">
            <QrImage content={q.content} label={`${q.stationName} 的二维码`} size={160} />
            <figcaption className="text-center text-sm">{q.stationName}</figcaption>
            <code className="text-[10px] text-gray-600">{q.qrCode}</code>
          </figure>
        ))}
      </div>
    </div>
  );
}
