import { AgreementPage } from '../../../components/resource/agreement-page';
import { SPECIAL_CODE_AGREEMENT } from '../paths';

/** 特殊码协议 (SpecialCodeAgreement): the text riders accept before buying a special code, one per area. */
export function SpecialCodeAgreementPage() {
  return <AgreementPage code={SPECIAL_CODE_AGREEMENT} title="特殊码协议" defaultTitle="特殊码服务协议" />;
}
