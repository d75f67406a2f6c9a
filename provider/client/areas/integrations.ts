import type {
  AppUserInput,
  AuthenticationConfig,
  AuthorizedUser,
  AuthorizeUserInput,
  LoginVoucher,
  SupportedBrands,
} from "../../../contract/integrations/types";
import { NOTE, readOnly, v2 } from "../../../contract/routes";
import { rememberSecret } from "../../context/process";
import { type Requester, routeInfo } from "../call";
import { checkRequest } from "../check";
import { request } from "../request";

/** The SDK integration routes (spec 2.8, 4.3 and 5; API 2.0 only); the sandbox mounts its handlers on the same ones. */
export const INTEGRATION_ROUTES = {
  v2AuthorizeUser: v2("POST", "/v2/integrations/authorize-user"),
  v2CreateLoginVoucher: v2("POST", "/v2/integrations/app-login-voucher", { inferred: NOTE }),
  v2AuthenticationConfig: v2("POST", "/v2/config/authentications", { ...readOnly, inferred: NOTE }),
  v2SupportedBrands: v2("POST", "/v2/catalog/brands", { ...readOnly, inferred: NOTE }),
} as const;

const R = INTEGRATION_ROUTES;

/*
 * The integrations' request and response schemas load at the first call: the provider's lifecycles
 * never call an integration route, and every dynamic-provider host and plugin process loads this client.
 */
const requests = () => import("../../../contract/integrations/requests.js");
const responses = () => import("../../../contract/integrations/responses.js");

/**
 * The SDK integrations, as `client.integrations` (API 2.0, whatever the client's version). Bodies are
 * checked with the shared rules of contract/integrations/requests.ts before they are sent. What the
 * service hands out for an app user (the signed request, the voucher) is a credential, so it joins the
 * secrets no message repeats.
 */
export class Integrations {
  /** @param api the client's pipeline, which every method sends through */
  constructor(private readonly api: Requester) {}

  /**
   * Signs a mobile SDK's authorization request for one of your users. Never re-sent: a lost response
   * raises AmbiguousRequestError; calling again for the same `unique_user_id` is harmless, but the first
   * call's names stay.
   *
   * @example const { signed_authorization_request, username } = await client.integrations.authorizeUser({ unique_user_id: "user-1042", email: "ann@example.com", sdk_authorization_request });
   */
  async authorizeUser(input: AuthorizeUserInput): Promise<AuthorizedUser> {
    const { AuthorizeUserBody } = await requests();
    const { AuthorizedUserSchema } = await responses();
    checkRequest(AuthorizeUserBody, input, routeInfo(R.v2AuthorizeUser));
    const response = await request(this.api, R.v2AuthorizeUser, {
      body: input,
      schema: AuthorizedUserSchema,
    });
    rememberSecret(response.signed_authorization_request);
    return response;
  }

  /**
   * A login voucher for one of your users: the legacy sign-in flow (inferred route). Never re-sent: a
   * lost response raises AmbiguousRequestError.
   *
   * @example const { login_voucher } = await client.integrations.createLoginVoucher({ unique_user_id: "user-1042", email: "ann@example.com" });
   */
  async createLoginVoucher(input: AppUserInput): Promise<LoginVoucher> {
    const { LoginVoucherBody } = await requests();
    const { LoginVoucherSchema } = await responses();
    checkRequest(LoginVoucherBody, input, routeInfo(R.v2CreateLoginVoucher));
    const response = await request(this.api, R.v2CreateLoginVoucher, {
      body: input,
      schema: LoginVoucherSchema,
    });
    rememberSecret(response.login_voucher);
    return response;
  }

  /**
   * The brand and material options available to the token, valid from `iat` to `exp` (inferred route).
   * The route takes no parameters.
   *
   * @example const { config, exp } = await client.integrations.authenticationConfig();
   */
  async authenticationConfig(): Promise<AuthenticationConfig> {
    const { AuthenticationConfigSchema } = await responses();
    return request(this.api, R.v2AuthenticationConfig, { body: {}, schema: AuthenticationConfigSchema });
  }

  /**
   * The supported brands and categories of the capture form (inferred route). A 503 ("temporarily
   * unavailable") is retried within the retry budget, then raises UnavailableError.
   *
   * @example const { categories } = await client.integrations.supportedBrands();
   */
  async supportedBrands(): Promise<SupportedBrands> {
    const { SupportedBrandsSchema } = await responses();
    return request(this.api, R.v2SupportedBrands, { body: {}, schema: SupportedBrandsSchema });
  }
}
