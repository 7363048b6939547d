import { toast } from './toast';
import { createHttp } from './http';
import { announceSessionEnded } from './session-ended';
import { readDistrict, readToken } from './session-store';

/** The console's HTTP client: token and area from storage, errors to toasts and the session notice. */
export const api = createHttp({
  getToken: () => readToken()?.token ?? null,
  getDistrict: readDistrict,
  onSessionEnded: (reason, msg) => announceSessionEnded({ reason, msg }),
  toast: (msg) => toast.error(msg),
});
