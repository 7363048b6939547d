import { useState } from 'react';
import { useLocation } from 'wouter';
import { type HandleSetting, RULE_TEXT_MAX, applyCategoryLabel, settingById, settingSave } from '../../../../shared/api/handle-card';
import { EditPageButtons, LeaveEditDialog } from '../../../components/edit-page-footer';
import { FormError, TextAreaField } from '../../../components/form-controls';
import { RecordByIdBody } from '../../../components/record-by-id-body';
import { ScreenSection } from '../../../components/screen-section';
import { useAllowed } from '../../../lib/permission';
import { useContractForm } from '../../../lib/use-contract-form';
import { useRecordById } from '../../../lib/use-record-by-id';
import { editorKeys } from '../../../lib/use-save-key';
import { settingPath } from '../apply-paths';

/**
 * 办卡规则编辑 (HandleCardRuleEdit, hidden; reached from 办卡设置 with `?id=`): the 办卡须知 riders read
 * before applying for one card type in one district. Enter in a field or Ctrl+S saves, Esc returns to
 * 办卡设置 (asking first when the text changed); without the permission it is read-only.
 */
export function HandleCardRuleEditPage() {
  const setting = useRecordById(settingById);
  const loaded = setting.record;
  return (
    <ScreenSection title="办卡规则编辑">
      <div className="max-w-3xl rounded border border-gray-200 bg-white p-4 sm:p-6">
        <h3 className="mb-4 text-base font-medium text-gray-900">{loaded ? `办卡须知 · ${loaded.districtName ?? ''}${applyCategoryLabel(loaded.cardCategory)}` : '办卡须知'}</h3>
        {!setting.raw ? (
          <p className="text-sm text-gray-700">请从办卡设置中选择要编辑办卡须知的卡类型。</p>
        ) : (
          <RecordByIdBody loaded={setting} noun="办卡设置">
            {loaded && <RuleForm key={loaded.id} setting={loaded} />}
          </RecordByIdBody>
        )}
      </div>
    </ScreenSection>
  );
}

function RuleForm({ setting }: { setting: HandleSetting }) {
  const [, navigate] = useLocation();
  const canSave = useAllowed(settingSave.permission);
  const [leaving, setLeaving] = useState(false);
  const back = () => navigate(settingPath());
  const form = useContractForm(settingSave, {
    initial: { ruleText: setting.ruleText },
    // The rest of the setting as it was loaded: this page changes the text only.
    toInput: (v) => ({
      body: {
        id: setting.id,
        cardCategory: setting.cardCategory,
        open: setting.open,
        ageMin: setting.ageMin,
        ageMax: setting.ageMax,
        feeFen: setting.feeFen,
        deliveryModes: setting.deliveryModes as (1 | 2)[],
        materials: setting.materials as never,
        onePerId: setting.onePerId,
        dailyQuota: setting.dailyQuota,
        ruleText: v.ruleText,
      },
    }),
    success: (s) => `已保存${s.districtName ?? ''}${applyCategoryLabel(s.cardCategory)}的办卡须知`,
    onSaved: back,
  });
  const readOnly = !canSave;
  const keys = editorKeys({ form, blocked: readOnly, readOnly, back, confirmLeave: () => setLeaving(true) });
  const { values, errors, set } = form;
  return (
    <>
      <form noValidate onSubmit={keys.submit} onKeyDown={keys.onKeyDown} aria-label="办卡须知">
        <FormError>{errors['']}</FormError>
        {readOnly && <p className="mb-4 rounded bg-gray-50 px-3 py-2 text-sm text-gray-700">只读：修改办卡须知需要「修改办卡设置」权限。</p>}
        <fieldset disabled={form.busy} className="contents">
          <TextAreaField
            label="办卡须知"
            required
            autoFocus={!readOnly}
            readOnly={readOnly}
            rows={14}
            maxLength={RULE_TEXT_MAX}
            value={values.ruleText}
            onChange={(e) => set('ruleText', e.target.value)}
            error={errors.ruleText}
            hint={`${values.ruleText.length} / ${RULE_TEXT_MAX} 字 · Ctrl+S 保存`}
          />
        </fieldset>
        <EditPageButtons readOnly={readOnly} busy={form.busy} onBack={back} />
      </form>
      <LeaveEditDialog open={leaving} listName="办卡设置" onLeave={back} onClose={() => setLeaving(false)} />
    </>
  );
}
