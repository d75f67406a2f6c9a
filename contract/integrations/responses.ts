import { z } from "zod";
import { exactly } from "../common-types";
import type { AuthenticationConfig, AuthorizedUser, LoginVoucher, SupportedBrands } from "./types";

/**
 * The responses of the SDK integration routes (spec 2.8), in the wire shapes of types.ts.
 * Keys the spec does not list are tolerated and dropped.
 */

/** authorize-user: `{signed_authorization_request, username}`. */
export const AuthorizedUserSchema = exactly<AuthorizedUser>()(
  z.object({ signed_authorization_request: z.string(), username: z.string() }),
);

/** The login voucher: `{login_voucher, username}`. */
export const LoginVoucherSchema = exactly<LoginVoucher>()(
  z.object({ login_voucher: z.string(), username: z.string() }),
);

/** The authentication config: `{config, iat, exp}`, the times in whole Unix seconds. */
export const AuthenticationConfigSchema = exactly<AuthenticationConfig>()(
  z.object({
    config: z.record(z.string(), z.unknown()),
    iat: z.number().int(),
    exp: z.number().int(),
  }),
);

/** Supported brands: `{categories}`, whose elements have no documented shape. */
export const SupportedBrandsSchema = exactly<SupportedBrands>()(
  z.object({ categories: z.array(z.unknown()) }),
);
