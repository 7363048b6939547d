import { useState } from 'react';
import { createPortal } from 'react-dom';
import { type StationQr, station } from '../../../../shared/api';
import { Button } from '../../../components/button';
import { ExportButton, useExportAction } from '../../../components/resource/export-action';
import { textFilter } from '../../../components/resource/list-filters';
import { type ListColumn, ResourceTable, useResourceList } from '../../../components/resource/resource-list';
import { useRowActions } from '../../../components/resource/row-actions';
import { ScreenSection } from '../../../components/screen-section';
import { toast } from '../../../lib/toast';
import { api } from '../../../lib/api-client';
import { useRevalidate } from '../../../lib/revalidate';
import { useScreenAction } from '../../../lib/screen-action';
import { saveFile } from '../../../lib/save-file';
import { useAllowed } from '../../../lib/permission';
import { useQrSurplus } from '../api';
import { QrImage, qrPng } from '../components/qr-image';

const columns: ListColumn<typeof station.stationQrPage>[] = [
  { id: 'qr', header: '二维码', fixed: true, cell: (q) => <QrImage content={q.content} label={`${q.stationName} 的二维码`} size={56} /> },
  { id: 'name', header: '站点名称', sort: 'name', cell: (q) => <span className="font-medium text-gray-800">{q.stationName}</span> },
  { id: 'code', header: '编码', cell: (q) => <code className="text-xs">{q.qrCode}</code> },
  { id: 'content', header: '内容', cell: (q) => <span className="text-xs text-gray-600">{q.content}</span> },
];

const download = async (q: StationQr) => saveFile(await qrPng(q.content, q.stationName), `${q.stationName}-${q.qrCode}.png`);

/**
 * 站点二维码 (ListStationQrCode): every station's mini-program code, generated for those without one,
 * printed as an A4 sheet (3 × 4 per page, name under each) or downloaded one by one as PNG.
 */
export function StationQrPage() {
  const list = useResourceList({ endpoint: station.stationQrPage, record: 'station', filters: { name: textFilter('站点名称', { placeholder: '如 人民广场' }) } });
  const surplus = useQrSurplus();
  const canGenerate = useAllowed(station.stationQrInit.permission);
  const revalidate = useRevalidate();
  const [busy, setBusy] = useState(false);
  const [printing, setPrinting] = useState<readonly StationQr[] | null>(null);

  const generate = async () => {
    if (busy) return;
    setBusy(true);
    try {
      const res = await api.call(station.stationQrInit);
      toast.success(res.generated ? `已生成 ${res.generated} 个站点二维码` : '所有站点都已有二维码');
      // The codes' page and the count of those missing, by the call's tags.
      await revalidate(station.stationQrInit);
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
  const exporter = useExportAction({ on: ['station', 'station-qr-code', 'export'], endpoint: station.stationQrExport, filters: list.filterQuery, file: { name: '站点二维码', done: '已导出站点二维码' } });
  // Each row's PNG; the name makes the button say whose code it saves.
  const actions = useRowActions<StationQr>([{ id: 'download', label: '下载', permission: station.stationQrPage.permission, open: (q) => void download(q) }], (q) => `${q.stationName} 的二维码`);

  const missing = surplus.data?.surplus ?? 0;
  return (
    <ScreenSection title="站点二维码">
      <ResourceTable
        list={list}
        actions={actions}
        id="station.qr"
        label="站点二维码列表"
        columns={columns}
        rowKey={(q) => q.stationId}
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
            <ExportButton action={exporter} />
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
