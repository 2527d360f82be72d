import type { ApiClient } from '../api/http';
import { getMembershipRules, postGiftee } from '../api/membership';
import type { MembershipApi } from './MembershipFormStore';

/** The membership form's calls (spec section 7), on the storefront's API client. */
export function membershipApi(api: ApiClient): MembershipApi {
  return {
    getRules: () => getMembershipRules(api),
    postGiftee: (body) => postGiftee(api, body),
  };
}
