/**
 * What the client's SDK integration methods take and answer (spec 2.8, 4.3 and 5), as plain TypeScript
 * (no zod, for the reason ../common-types.ts gives), in the spec's wire names. The request rules live in requests.ts, the answer schemas
 * in answers.ts.
 */

/** One of your app's users, as authorize-user and the login voucher identify it. */
export interface AppUserInput {
  /**
   * Your own id for the user: 8 to 40 characters from `A-Z a-z 0-9 @ . + _ -`. The service's username
   * for the user is your organization's name joined to it.
   */
  readonly unique_user_id: string;
  /** The user's email address. */
  readonly email: string;
  /** Printed on certificates. The first call for a `unique_user_id` fixes it for good. */
  readonly first_name?: string | null | undefined;
  /** Printed on certificates. The first call for a `unique_user_id` fixes it for good. */
  readonly last_name?: string | null | undefined;
}

/** The body of authorize-user: the user, and the request the mobile SDK produced for it. */
export interface AuthorizeUserInput extends AppUserInput {
  /** What the SDK produced; your backend passes it through once it has authenticated its user. */
  readonly sdk_authorization_request: string;
}

/** What authorize-user answers. */
export interface AuthorizedUser {
  /** Hand it back to the SDK. A credential: the client never logs it. */
  readonly signed_authorization_request: string;
  /** The user's username at the service; store it to search by `owner.user.username` later. */
  readonly username: string;
}

/** What the login voucher route answers (the legacy sign-in flow). */
export interface LoginVoucher {
  /** A credential: the client never logs it. */
  readonly login_voucher: string;
  /** The user's username at the service. */
  readonly username: string;
}

/** The authentication config of the token (API 2.0). */
export interface AuthenticationConfig {
  /** The brand and material options available to the token; its other contents are not documented. */
  readonly config: Readonly<Record<string, unknown>>;
  /** Issued at, Unix seconds. */
  readonly iat: number;
  /** Expires at, Unix seconds. */
  readonly exp: number;
}

/** The supported brands and categories (API 2.0): a capture-form taxonomy, not item data. */
export interface SupportedBrands {
  /** The shape of an element is not documented. */
  readonly categories: unknown[];
}
