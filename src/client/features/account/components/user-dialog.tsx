import { useMemo, useState } from 'react';
import { type BodyOf, ROLE_LABELS, type Role, type StaffUser, account } from '../../../../shared/api';
import { Field } from '../../../components/field';
import { CheckboxField, FormError, SelectField } from '../../../components/form-controls';
import { type FieldErrors, refusalShown, validate } from '../../../lib/form-errors';
import { Modal, ModalActions } from '../../../components/modal';
import { toast } from '../../../lib/toast';
import { api } from '../../../lib/api-client';
import { StaleNote } from '../../../components/stale-note';
import { useStaleSave } from '../../../lib/use-stale-save';
import { useCurrentUser, useDistricts, useGrantableRoles, useGroups, useIsSuperUser } from '../api';
import { RecordChangedNotice } from '../../../components/record-changed-notice';

type Values = {
  login: string;
  firstName: string;
  phone: string;
  password: string;
  authority: string;
  groupId: string;
  districtId: string;
  openDistrict: boolean;
};

const LABELS: Record<keyof Values, string> = {
  login: '用户名',
  firstName: '姓名',
  phone: '手机号',
  password: '密码',
  authority: '角色',
  groupId: '角色组',
  districtId: '区域',
  openDistrict: '可切换区域',
};
const SELECTS = new Set<keyof Values>(['authority', 'groupId', 'districtId']);
const FIELDS = Object.keys(LABELS);

const initial = (u: StaffUser | null): Values => ({
  login: u?.login ?? '',
  firstName: u?.firstName ?? '',
  phone: u?.phone ?? '',
  password: '',
  authority: u?.authorities[0] ?? '',
  groupId: u?.groupId ? String(u.groupId) : '',
  districtId: u?.districtId ? String(u.districtId) : '',
  openDistrict: u?.openDistrict ?? false,
});

/**
 * The contract's messages, except that an empty field says so plainly: a missing role group is
 * "请选择角色组", not the schema's "角色组必须是数字".
 */
function plain(errors: FieldErrors, values: Values): FieldErrors {
  const out: FieldErrors = { ...errors };
  for (const [k, label] of Object.entries(LABELS) as [keyof Values, string][]) {
    if (out[k] && values[k] === '') out[k] = SELECTS.has(k) ? `请选择${label}` : `${label}不能为空`;
  }
  return out;
}

/**
 * 新增 / 编辑账号. Checked with the contract's body schema before sending; an edit sends only what
 * changed, so an account editing itself does not "change" its own role by re-sending it.
 */
export function UserDialog({ user, onClose, onSaved }: { user: StaffUser | null; onClose(): void; onSaved(): void }) {
  const adding = user === null;
  const [first] = useState<Values>(() => initial(user));
  const [values, setValues] = useState<Values>(first);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  // Issue 21: saved from the version opened; another's save meanwhile shows beside the typed text.
  const stale = useStaleSave<Values, StaffUser>(user ? { version: user.rowVersion, valuesOf: initial } : undefined, first);
  const me = useCurrentUser();
  const groups = useGroups();
  const districts = useDistricts();
  const roles = useGrantableRoles();
  const superUser = useIsSuperUser();
  const chooseDistrict = !!me.data?.openDistrict;
  // Own role, group and district change only through the super user (README decision 9).
  const self = !adding && user.login === me.data?.login;
  const lockGrants = self && !superUser;

  const groupOptions = useMemo(() => {
    const all = groups.data ?? [];
    const own = all.find((g) => g.id === me.data?.groupId);
    // A group holding items the operator lacks would be refused (README decision 9).
    const grantable = superUser ? all : all.filter((g) => g.id === user?.groupId || (own && g.itemIds.every((i) => own.itemIds.includes(i))));
    return grantable.map((g) => ({ value: String(g.id), label: g.name }));
  }, [groups.data, me.data?.groupId, superUser, user?.groupId]);

  const roleOptions = useMemo(() => {
    const list: Role[] = [...roles];
    for (const r of user?.authorities ?? []) if (!list.includes(r)) list.push(r);
    return list.map((r) => ({ value: r, label: ROLE_LABELS[r] }));
  }, [roles, user]);

  const set = <K extends keyof Values>(k: K, v: Values[K]) => {
    setValues((prev) => ({ ...prev, [k]: v }));
    setErrors((prev) => {
      if (!prev[k] && !prev['']) return prev;
      const { [k]: _gone, '': _form, ...rest } = prev;
      return rest;
    });
  };

  const body = (): Record<string, unknown> => {
    const v = values;
    const districtId = v.districtId ? Number(v.districtId) : null;
    if (adding) {
      return {
        login: v.login,
        firstName: v.firstName,
        phone: v.phone.trim() || undefined,
        password: v.password,
        authority: v.authority || undefined,
        groupId: v.groupId ? Number(v.groupId) : undefined,
        // Without a district choice the server files the account under the operator's district.
        ...(chooseDistrict ? { districtId } : {}),
        openDistrict: superUser ? v.openDistrict : false,
        activated: true,
      };
    }
    // Against what is saved now (after a stale refusal, the other's save): what differs is sent.
    const start = stale.saved;
    const out: Record<string, unknown> = { id: user.id, rowVersion: stale.version };
    if (v.firstName !== start.firstName) out.firstName = v.firstName;
    if (v.phone.trim() !== start.phone) out.phone = v.phone.trim() || null;
    if (v.password) out.password = v.password;
    if (!lockGrants) {
      if (v.authority !== start.authority) out.authority = v.authority || undefined;
      if (v.groupId !== start.groupId) out.groupId = v.groupId ? Number(v.groupId) : undefined;
      if (chooseDistrict && v.districtId !== start.districtId) out.districtId = districtId;
      if (superUser && v.openDistrict !== start.openDistrict) out.openDistrict = v.openDistrict;
    }
    return out;
  };

  const submit = async () => {
    if (busy) return;
    const data = body();
    const schema = adding ? account.userAdd.body : account.userUpdate.body;
    const found = validate(schema, data) ?? {};
    // The schema lets districtId be empty; the server then says 请选择账号所属区域 unless the
    // account may switch areas, so the same rule is checked here before a round trip.
    const nextOpen = 'openDistrict' in data ? !!data.openDistrict : !!user?.openDistrict;
    if (chooseDistrict && !nextOpen && !values.districtId) found.districtId ??= '请选择区域';
    if (Object.keys(found).length) return setErrors(plain(found, values));
    if (!adding && Object.keys(data).length === 2) {
      toast.info('没有修改任何内容');
      return onClose();
    }
    setBusy(true);
    setErrors({});
    try {
      // Silent: the refusal is shown below, beside the field it concerns and in one toast.
      // `data` passed the endpoint's own body schema above (validate), so it is that body's input.
      if (adding) await api.call(account.userAdd, { body: data as BodyOf<typeof account.userAdd> }, { silent: true });
      else await api.call(account.userUpdate, { body: data as BodyOf<typeof account.userUpdate> }, { silent: true });
      stale.settled(null);
      toast.success(adding ? `已新增账号 ${values.login.trim().toLowerCase()}` : `已保存账号 ${user.login}`);
      onSaved();
    } catch (err) {
      const taken = stale.refused(err, values);
      if (taken && Object.keys(taken).length) setValues((prev) => ({ ...prev, ...taken }));
      const shown = FIELDS.filter((f) => (f !== 'districtId' || chooseDistrict) && (f !== 'openDistrict' || superUser) && (f !== 'login' || adding));
      // Beside the field it concerns and, as spec §8 asks, in a toast too.
      setErrors(refusalShown(err, shown));
      setBusy(false);
    }
  };

  const note = { theirs: stale.theirs, takeTheirs: (k: keyof Values) => (k in stale.theirs && set(k, stale.theirs[k]!), stale.dismiss(k)), keepMine: stale.dismiss };
  return (
    <Modal
      open
      title={adding ? '新增账号' : `编辑账号 · ${user.login}`}
      onClose={onClose}
      dirty={JSON.stringify(values) !== JSON.stringify(first)}
      onSubmit={submit}
      footer={<ModalActions onCancel={onClose} busy={busy} />}
    >
      <RecordChangedNotice kind="user" id={user?.id} />
      <FormError>{errors['']}</FormError>
      {adding ? (
        <Field label="用户名" required autoFocus autoComplete="off" maxLength={32} value={values.login} onChange={(e) => set('login', e.target.value)} error={errors.login} hint="字母、数字和 _ . @ -，登录时不区分大小写" />
      ) : (
        <Field label="用户名" value={user.login} readOnly disabled className="bg-gray-50 text-gray-500" />
      )}
      <Field label="姓名" required autoFocus={!adding} maxLength={32} value={values.firstName} onChange={(e) => set('firstName', e.target.value)} error={errors.firstName} note={<StaleNote form={note} field="firstName" />} />
      <Field label="手机号" type="tel" inputMode="numeric" maxLength={11} value={values.phone} onChange={(e) => set('phone', e.target.value)} error={errors.phone} note={<StaleNote form={note} field="phone" />} />
      {adding ? (
        <Field label="密码" type="password" required autoComplete="new-password" value={values.password} onChange={(e) => set('password', e.target.value)} error={errors.password} hint="至少8位，含字母和数字" />
      ) : (
        <Field
          label="重置密码"
          type="password"
          autoComplete="new-password"
          disabled={self}
          className={self ? 'bg-gray-50' : ''}
          value={values.password}
          onChange={(e) => set('password', e.target.value)}
          error={errors.password}
          hint={self ? '修改自己的密码请使用右上角的“修改密码”' : '留空则不修改；重置后该账号需重新登录'}
        />
      )}
      <SelectField
        label="角色"
        required
        placeholder="请选择角色"
        options={roleOptions}
        disabled={lockGrants}
        value={values.authority}
        onChange={(e) => set('authority', e.target.value)}
        error={errors.authority}
        hint={lockGrants ? '不能修改自己的角色、角色组或区域' : undefined}
        note={<StaleNote form={note} field="authority" show={(v) => ROLE_LABELS[v as Role] ?? v} />}
      />
      <SelectField
        label="角色组"
        required
        placeholder={groups.isLoading ? '加载中…' : '请选择角色组'}
        options={groupOptions}
        disabled={lockGrants}
        value={values.groupId}
        onChange={(e) => set('groupId', e.target.value)}
        error={errors.groupId}
        note={<StaleNote form={note} field="groupId" show={(v) => (groups.data ?? []).find((g) => String(g.id) === v)?.name ?? v} />}
      />
      {chooseDistrict && (
        <SelectField
          label="区域"
          required={!values.openDistrict}
          placeholder={values.openDistrict ? '不限' : '请选择区域'}
          options={(districts.data?.content ?? []).map((d) => ({ value: String(d.id), label: d.name }))}
          disabled={lockGrants}
          value={values.districtId}
          onChange={(e) => set('districtId', e.target.value)}
          error={errors.districtId}
          note={<StaleNote form={note} field="districtId" show={(v) => (districts.data?.content ?? []).find((d) => String(d.id) === v)?.name ?? (v || '不限')} />}
        />
      )}
      {superUser && (
        <CheckboxField
          label="可切换区域"
          checked={values.openDistrict}
          disabled={lockGrants}
          onChange={(v) => set('openDistrict', v)}
          hint="开启后该账号可在顶部切换区域，查看各区域的数据"
        />
      )}
      {superUser && (
        <StaleNote form={note} field="openDistrict" show={(v) => (v ? '可切换区域' : '不可切换区域')} />
      )}
    </Modal>
  );
}
