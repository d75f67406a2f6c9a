import { z } from "zod";
import { safeString } from "../control-characters";

/**
 * The request rules of the SDK integration routes (spec 2.8, 4.3 and 5): authorize-user and the
 * login voucher. The sandbox answers 400 when a body breaks them; a client refuses to send it.
 */

/** `unique_user_id`: 8 to 40 characters from `A-Z a-z 0-9 @ . + _ -` (spec 5 and 8). */
const UNIQUE_USER_ID = { min: 8, max: 40, characters: "A-Z a-z 0-9 @ . + _ -" } as const;

const USER_ID_CHARACTERS = /^[A-Za-z0-9@.+_-]*$/;

/** The caller's own id for an app user; the first call for it fixes the user's names for good. */
const UniqueUserId = safeString()
  .min(UNIQUE_USER_ID.min, `must be ${UNIQUE_USER_ID.min} to ${UNIQUE_USER_ID.max} characters`)
  .max(UNIQUE_USER_ID.max, `must be ${UNIQUE_USER_ID.min} to ${UNIQUE_USER_ID.max} characters`)
  .regex(USER_ID_CHARACTERS, `may contain only ${UNIQUE_USER_ID.characters}`);

/** An email address: text on both sides of one `@`, no spaces. */
const Email = safeString().regex(/^[^\s@]+@[^\s@]+$/, "must be an email address such as a@example.com");

/** `first_name` / `last_name`: optional, printed on certificates. */
const PersonName = safeString().nullish();

/** Members authorize-user and the login voucher share. */
const AppUserMembers = {
  unique_user_id: UniqueUserId,
  email: Email,
  first_name: PersonName,
  last_name: PersonName,
};

/** POST /v2/integrations/authorize-user: sign an SDK's authorization request for one of your users. */
export const AuthorizeUserBody = z.looseObject({
  ...AppUserMembers,
  sdk_authorization_request: safeString().min(1, "must not be empty"),
});
/** What a caller sends to authorize-user. */
export type AuthorizeUserBody = z.input<typeof AuthorizeUserBody>;

/** POST /v2/integrations/app-login-voucher (the legacy sign-in flow); other members are accepted. */
export const LoginVoucherBody = z.looseObject(AppUserMembers);
/** What a caller sends for a login voucher. */
export type LoginVoucherBody = z.input<typeof LoginVoucherBody>;
