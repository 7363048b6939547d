import { useLocation } from 'wouter';
import { busLine } from '../../../../shared/api';
import { pagePath } from '../../../../shared/modules';
import { Button } from '../../../components/button';
import { ScreenSection } from '../../../components/screen-section';
import { useNoAreaChosen } from '../../../lib/current-user';
import { useAllowed } from '../../../lib/permission';
import { LineFields, useLineForm } from '../components/line-form';

/** 新增线路 (AddBusLine): a line in the area's open version; its stops are added on the next screen. */
export function AddLinePage() {
  const [, navigate] = useLocation();
  const allowed = useAllowed(busLine.busLineSave.permission);
  const noArea = useNoAreaChosen();
  const form = useLineForm(null, (saved) => navigate(pagePath('bus', 'bus-line', { query: { id: saved.id } })));
  if (!allowed) return <ScreenSection title="新增线路"><p className="text-sm text-gray-700">需要线网编辑权限才能新增线路。</p></ScreenSection>;
  return (
    <ScreenSection title="新增线路">
      <form
        className="max-w-xl rounded border border-gray-200 bg-white p-4"
        onSubmit={(e) => {
          e.preventDefault();
          void form.submit();
        }}
      >
        {noArea && <p className="mb-4 rounded bg-orange-50 px-3 py-2 text-sm text-orange-800">请先在顶部选择区域：线路加在该区域开放编辑的版本中。</p>}
        <LineFields form={form} />
        <div className="flex justify-end gap-2">
          <Button onClick={() => navigate(pagePath('bus', 'list'))}>取消</Button>
          <Button type="submit" variant="primary" hotkey="Enter" disabled={form.busy || noArea}>
            保存并编辑站点
          </Button>
        </div>
      </form>
    </ScreenSection>
  );
}
