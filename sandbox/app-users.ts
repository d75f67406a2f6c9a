/** An end user of a customer's app, as authorize-user and the login voucher know it (spec 5). */
interface AppUser {
  readonly organization: string;
  readonly uniqueUserId: string;
  readonly username: string;
  readonly email: string;
  /** Fixed by the first call for the unique_user_id, null when that call sent none. */
  readonly firstName: string | null;
  readonly lastName: string | null;
}

/** The username of an app user: the organization name joined to the unique_user_id with a hyphen. */
function appUsername(organization: string, uniqueUserId: string): string {
  return `${organization}-${uniqueUserId}`;
}

/**
 * App users per organization. The first call for a unique_user_id fixes first_name and last_name for
 * good; later calls keep them and only update the email. Each user's username joins the organization's
 * users, so webhook filters and sessions may name it.
 */
export class AppUsers {
  private readonly byKey = new Map<string, AppUser>();

  constructor(private readonly orgUsers: Map<string, Set<string>>) {}

  /** Records a call for an app user and answers the user; the first call for a unique_user_id fixes the names. */
  enrol(
    organization: string,
    input: { unique_user_id: string; email: string; first_name?: string | null; last_name?: string | null },
  ): AppUser {
    const key = `${organization}\u0000${input.unique_user_id}`;
    const known = this.byKey.get(key);
    const user: AppUser = known
      ? { ...known, email: input.email }
      : {
          organization,
          uniqueUserId: input.unique_user_id,
          username: appUsername(organization, input.unique_user_id),
          email: input.email,
          firstName: input.first_name ?? null,
          lastName: input.last_name ?? null,
        };
    this.byKey.set(key, user);
    const users = this.orgUsers.get(organization) ?? new Set<string>();
    users.add(user.username);
    this.orgUsers.set(organization, users);
    return user;
  }

  /** Every app user of every organization, in enrolment order. */
  all(): AppUser[] {
    return [...this.byKey.values()];
  }
}
