import { randomBytes } from "node:crypto";
import { z } from "zod";
import { AuthorizeUserBody, LoginVoucherBody } from "../../contract/integrations/requests";
import type { RouteName } from "../../provider/client/index";
import { BRANDS, CATEGORIES, MATERIALS } from "../catalog";
import { type ApiHandler, parseWith } from "../context";
import { localize } from "../display";
import { HttpError } from "../http-errors";

/** The config and brands routes take no body, or any JSON object. */
const OptionalObject = z.looseObject({}).nullish();

/**
 * Signs an SDK authorization request for one of the customer's users (spec 5): the answer is a
 * sandbox-signed envelope of the request and the username, `<base64url JSON>.<signature>`.
 */
const authorizeUser: ApiHandler = (call, { appUsers, signer, clock }) => {
  const body = parseWith(AuthorizeUserBody, call.body);
  const user = appUsers.enrol(call.token.organization, body);
  const payload = Buffer.from(
    JSON.stringify({
      sdk_authorization_request: body.sdk_authorization_request,
      username: user.username,
      first_name: user.firstName,
      last_name: user.lastName,
      iat: Math.floor(clock.now() / 1000),
    }),
  ).toString("base64url");
  return { signed_authorization_request: `${payload}.${signer.sign(payload)}`, username: user.username };
};

/** The legacy sign-in flow: a one-off voucher for one of the customer's users. */
const createLoginVoucher: ApiHandler = (call, { appUsers }) => {
  const user = appUsers.enrol(call.token.organization, parseWith(LoginVoucherBody, call.body));
  return { login_voucher: randomBytes(24).toString("base64url"), username: user.username };
};

/** The brand and material options available to the token, valid from `iat` to `exp` (Unix seconds). */
const authenticationConfig: ApiHandler = (call, { clock, settings }) => {
  parseWith(OptionalObject, call.body);
  const iat = Math.floor(clock.now() / 1000);
  const option = ({ id, display }: { id: string; display: unknown }) => ({ id, display });
  return {
    config: localize({ brands: BRANDS.map(option), materials: MATERIALS.map(option) }, call.language),
    iat,
    exp: iat + settings.configLifetimeSeconds,
  };
};

/** The capture-form taxonomy; 503 while the seed's `brandsUnavailable` setting is on. */
const supportedBrands: ApiHandler = (call, { settings }) => {
  parseWith(OptionalObject, call.body);
  if (settings.brandsUnavailable) {
    throw new HttpError(
      503,
      "brands_unavailable",
      "the supported-brands options are temporarily unavailable; retry later",
      [],
      { "retry-after": "1" },
    );
  }
  return { categories: localize(CATEGORIES, call.language) };
};

/** The handlers of the SDK integration routes. */
export const integrationHandlers = {
  v2AuthorizeUser: authorizeUser,
  v2CreateLoginVoucher: createLoginVoucher,
  v2AuthenticationConfig: authenticationConfig,
  v2SupportedBrands: supportedBrands,
} satisfies Partial<Record<RouteName, ApiHandler>>;
