import { CUSTOM_AGREEMENT } from '../../../../shared/api/custom-bus/buttons';
import { AgreementPage } from '../../../components/resource/agreement-page';

/** 协议设置 (AgreementSetting): the text riders accept before buying a 定制公交 ticket, one per area; orders keep its version. */
export function AgreementSettingPage() {
  return <AgreementPage code={CUSTOM_AGREEMENT} title="定制公交协议" defaultTitle="定制公交购票协议" />;
}
