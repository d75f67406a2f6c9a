import {
  AuthenticationConfigSchema,
  AuthorizedUserSchema,
  LoginVoucherSchema,
  SupportedBrandsSchema,
} from "../../../contract/integrations/answers";
import { AuthorizeUserBody, LoginVoucherBody } from "../../../contract/integrations/requests";
import type {
  AppUserInput,
  AuthenticationConfig,
  AuthorizedUser,
  AuthorizeUserInput,
  LoginVoucher,
  SupportedBrands,
} from "../../../contract/integrations/types";
import { rememberSecret } from "../../context/process";
import { type Requester, routeInfo } from "../call";
import { checkRequest } from "../check";

/**
 * The SDK integration routes of ServiceClient (spec 2.8, 4.3 and 5; API 2.0 only). Bodies are checked
 * with the shared rules of contract/integrations/requests.ts before they are sent. What the service hands
 * out for an app user (the signed request, the voucher) is a credential, so it joins the secrets no
 * message repeats.
 */

/** authorize-user: signs the SDK's authorization request for one of the caller's users. */
export async function authorizeUser(api: Requester, input: AuthorizeUserInput): Promise<AuthorizedUser> {
  checkRequest(AuthorizeUserBody, input, routeInfo("v2AuthorizeUser"));
  const answer = await api.send("v2AuthorizeUser", { body: input, schema: AuthorizedUserSchema });
  rememberSecret(answer.signed_authorization_request);
  return answer;
}

/** The legacy sign-in flow: a one-off login voucher for one of the caller's users. */
export async function createLoginVoucher(api: Requester, input: AppUserInput): Promise<LoginVoucher> {
  checkRequest(LoginVoucherBody, input, routeInfo("v2CreateLoginVoucher"));
  const answer = await api.send("v2CreateLoginVoucher", { body: input, schema: LoginVoucherSchema });
  rememberSecret(answer.login_voucher);
  return answer;
}

/** The brand and material options available to the token. The route takes no parameters. */
export async function authenticationConfig(api: Requester): Promise<AuthenticationConfig> {
  return api.send("v2AuthenticationConfig", { body: {}, schema: AuthenticationConfigSchema });
}

/** The capture-form taxonomy. The route takes no parameters; a 503 is retried, as the spec asks. */
export async function supportedBrands(api: Requester): Promise<SupportedBrands> {
  return api.send("v2SupportedBrands", { body: {}, schema: SupportedBrandsSchema });
}
