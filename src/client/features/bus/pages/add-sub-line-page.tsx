import { useMemo, useState } from 'react';
import { useLocation } from 'wouter';
import { busLine } from '../../../../shared/api';
import { pagePath } from '../../../../shared/modules';
import { Button } from '../../../components/button';
import { PinyinPicker } from '../../../components/pinyin-picker';
import { ScreenSection } from '../../../components/screen-section';
import { useAllowed } from '../../../lib/permission';
import { useScreenLocation } from '../../../lib/screen-context';
import { idParam, useLines } from '../api';
import { SubLineFields, useSubLineForm } from '../components/sub-line-form';

/** 新增子线路 (AddSubLine, `?lineId=` optional): pick the line, name the sub-line, then choose its stops. */
export function AddSubLinePage() {
  const { search } = useScreenLocation();
  const [, navigate] = useLocation();
  const allowed = useAllowed(busLine.busLineDetailSave.permission);
  const lines = useLines({ page: 0, size: 1000 });
  const [lineId, setLineId] = useState<number | null>(idParam(search, 'lineId'));
  const form = useSubLineForm(null, lineId, (saved) => navigate(pagePath('bus', 'sub-line-station', { query: { id: saved.id } })));
  const line = lines.data?.content.find((l) => l.id === lineId) ?? null;
  const choices = useMemo(() => (lines.data?.content ?? []).map((l) => ({ id: l.id, label: `${l.name}（${l.code}）`, hint: l.terminals ?? undefined })), [lines.data]);
  if (!allowed) return <ScreenSection title="新增子线路"><p className="text-sm text-gray-700">需要线网编辑权限才能新增子线路。</p></ScreenSection>;
  return (
    <ScreenSection title="新增子线路">
      <form
        className="flex max-w-xl flex-col gap-4 rounded border border-gray-200 bg-white p-4"
        onSubmit={(e) => {
          e.preventDefault();
          void form.submit();
        }}
      >
        {line ? (
          <p className="flex items-center gap-2 text-sm text-gray-800">
            所属线路：<span className="font-medium">{line.name}（{line.code}）</span>
            <Button variant="text" onClick={() => (setLineId(null), form.set('lineId', ''))}>
              换一条
            </Button>
          </p>
        ) : (
          <PinyinPicker
            label="所属线路"
            items={choices}
            onPick={(item) => {
              setLineId(item.id);
              form.set('lineId', String(item.id));
              const picked = lines.data?.content.find((l) => l.id === item.id);
              if (picked?.direction === 1) form.set('direction', '1');
            }}
            placeholder="线路编号或名称，如 49"
            help="Enter 选择线路"
          />
        )}
        <SubLineFields form={form} lineDirection={line?.direction ?? null} />
        <div className="flex justify-end gap-2">
          <Button onClick={() => navigate(pagePath('bus', 'sub-list'))}>取消</Button>
          <Button type="submit" variant="primary" hotkey="Enter" disabled={form.busy || !lineId}>
            保存并选择站点
          </Button>
        </div>
      </form>
    </ScreenSection>
  );
}
