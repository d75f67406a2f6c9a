import { describeObservation, type Observation } from "../../contract/domains/verification-check";
import { optionSetting, spellProperty } from "../context/program-language";
import { LifecycleError } from "../errors/lifecycle";
import type { WebhookRecord } from "../webhook/create";

/** Every failure the domain flow reports, worded once: the object, the cause and the next step. */

const NEXT_STEP_EXPIRED =
  "Run `pulumi refresh` (or `pulumi up --refresh`): the expired registration is then reported gone, and the next `pulumi up` starts a new one with a new verifier and publishes it.";

export function expiredError(domainName: string, expiresAt: string): LifecycleError {
  return new LifecycleError(
    "link_expired",
    `The verification link for ${domainName} expired at ${expiresAt} before the domain was registered; finish_registration was not called. ${NEXT_STEP_EXPIRED}`,
  );
}

export function notServedError(
  domainName: string,
  url: string,
  seen: Observation,
  waitedSeconds: number,
): LifecycleError {
  return new LifecycleError(
    "file_not_served",
    `Gave up on ${domainName} after ${Math.round(waitedSeconds)} s: ${url} must serve exactly the register token over HTTPS, with no redirect, but ${describeObservation(seen)}. ` +
      "finish_registration was not called, so no attempt was spent. Check that the publisher's resource exists and that " +
      "the CDN routes /service_url_registration/* to it without redirecting or caching" +
      (seen.kind === "unreachable"
        ? ` (a host that exists only locally, such as the sandbox's, needs an origin in \`service:hostOverrides\`)`
        : "") +
      ", then run `pulumi up` again (raise the Domain's " +
      `${spellProperty("timeout")} if the file is slow to appear).`,
  );
}

export function cancelledWaitError(domainName: string, url: string, waitedSeconds: number): LifecycleError {
  return new LifecycleError(
    "file_not_served",
    `Stopped waiting for ${url} after ${Math.round(waitedSeconds)} s: the update was cancelled before ${domainName}'s verification file was served. ` +
      `finish_registration was not called, so no attempt was spent; run \`pulumi up\` again to go on verifying ${domainName}.`,
  );
}

export function finishFailedError(domainName: string, serviceSaid: string, cause: unknown): LifecycleError {
  return new LifecycleError(
    "verification_refused",
    `The service could not verify ${domainName}: ${serviceSaid}. The file was visible from here, so the service may see ` +
      "another origin (DNS, a CDN cache or a redirect for its requests). Fix that and run `pulumi up` again; repeated " +
      `failures lead the service to refuse finish_registration (429) for a while. If the link has expired meanwhile: ${NEXT_STEP_EXPIRED}`,
    { cause },
  );
}

export function finishBlockedError(
  domainName: string,
  retryAfterSeconds: number | undefined,
  cause: unknown,
) {
  const wait = retryAfterSeconds ? ` for another ${retryAfterSeconds} s` : " for a while";
  return new LifecycleError(
    "finish_blocked",
    `The service is refusing finish_registration for ${domainName}${wait} after repeated failed verifications. Wait that long, make sure the file is served exactly, then run \`pulumi up\` again.`,
    { cause },
  );
}

export function startUnconfirmedError(domainName: string, cause: unknown): LifecycleError {
  return new LifecycleError(
    "outcome_unknown",
    `The service did not confirm start_registration for ${domainName}. A registration it may have started is harmless: it expires unused. Nothing was recorded; run \`pulumi up\` again to start a new one.`,
    { cause },
  );
}

export function finishUnconfirmedError(domainName: string, cause: unknown): LifecycleError {
  return new LifecycleError(
    "outcome_unknown",
    `The service did not confirm finish_registration for ${domainName}, and ${domainName} is not listed as registered yet. Nothing was recorded. Run \`pulumi up\` again: it takes the domain if the finish was applied meanwhile, and otherwise finishes it (the link stays valid until it expires).`,
    { cause },
  );
}

/** An active webhook that targets a domain, and whether a resource of this stack stands for it. */
export interface DomainUser {
  /** The webhook, as the organization's listing shows it. */
  readonly webhook: WebhookRecord;
  /** Whether this provider process saw a resource of this stack standing for it. */
  readonly inThisStack: boolean;
}

/**
 * The deactivation of a domain this stack registered, refused (409) because active webhooks target it.
 * Each webhook is said to be in this stack's state or not. Those outside it belong to another stack or to
 * nobody, so no option of this stack's program can order them: the way out is `service-pulumi audit`,
 * which names the stack that holds each, and says what to do about a domain another stack shares.
 */
export function domainInUseError(
  domainName: string,
  domainUuid: string,
  users: readonly DomainUser[],
  cause: unknown,
): LifecycleError {
  const line = ({ webhook: w }: DomainUser) => `  - ${w.webhookUuid}  ${w.endpoint}  channel=${w.channel}`;
  const outside = users.filter((u) => !u.inThisStack);
  const inside = users.filter((u) => u.inThisStack);
  const lines = [
    `Cannot deactivate ${domainName} (${domainUuid}), which this stack registered: the service refuses while active webhooks target it.`,
  ];
  if (outside.length > 0) {
    lines.push(
      "Not in this stack's state, so another stack's or made by hand:",
      ...outside.map(line),
      "Pulumi cannot delete those from here. Run `service-pulumi audit --stacks <the other stack>,<this stack>` in the project's folder: it names the stack that holds each webhook. " +
        `If the other stack shares ${domainName} (it adopted it), destroy that stack first; or leave ${domainName} to it with the \`pulumi state delete\` audit prints for this stack, then \`pulumi destroy\` again. ` +
        "Otherwise deactivate those webhooks first (audit's `--deactivate-orphans` does so for ones no stack holds), or keep this Domain until they are gone.",
    );
  }
  if (inside.length > 0) {
    lines.push(
      "Held by this stack's own resources:",
      ...inside.map(line),
      `Give each of those Webhooks ${optionSetting("dependsOn", ["domain"])}, so that Pulumi deletes them before the domain.`,
    );
  }
  if (users.length === 0) {
    lines.push(
      `None is listed any more: run \`pulumi destroy\` again. If it is refused again, run \`service-pulumi audit\` to see what targets ${domainName}.`,
    );
  }
  return new LifecycleError("domain_in_use", lines.join("\n"), { cause });
}

/**
 * Said when a Domain finds its hostname already registered by the organization and was not told to
 * adopt it: at preview (`preview: true`, from the listing, before anything is created) and at up.
 */
export function alreadyRegisteredNotice(
  domainName: string,
  domainUuid: string,
  organization: string,
  preview: boolean,
): string {
  const owner = organization ? `organization ${organization}` : "the organization";
  const effect = preview
    ? "this stack will share it: it records that it did not register it, and its destroy leaves it registered"
    : "this stack shares it: its state records that it did not register it (status adopted), and its destroy leaves it registered";
  return (
    `${domainName} is already registered to ${owner} (${domainUuid}), by another stack or by hand; ${effect}. ` +
    `If sharing it is intended, give the Domain ${spellProperty("adopt")} true, which says so and skips the verification; otherwise give this stack a hostname of its own.`
  );
}

/** The one line a destroy says about a domain this stack adopted, which it leaves registered. */
export function leftRegisteredNotice(domainName: string, domainUuid: string): string {
  return `${domainName} (${domainUuid}) stays registered: this stack did not register it (status adopted), so deleting its Domain leaves it to the stack or person that did.`;
}

export function notRegisteredForAdoptError(domainName: string): LifecycleError {
  return new LifecycleError(
    "domain_not_registered",
    `Cannot adopt ${domainName}: it is not registered to this organization. Check the credentials, or remove ${spellProperty("adopt")} to verify it instead.`,
  );
}

export function importDomainNotFoundError(idOrName: string): LifecycleError {
  return new LifecycleError(
    "import_not_found",
    `Cannot import domain ${idOrName}: no registered domain of the organization that the provider's credentials (service:token) belong to has that hostname or domain_uuid. Check the id and the credentials; a domain that is not registered yet is verified by declaring it in the program instead.`,
  );
}

export function registrationImportError(id: string): LifecycleError {
  return new LifecycleError(
    "import_unsupported",
    `Cannot import DomainRegistration ${id}: the service never returns a registration's verifier or register token, so there is nothing to read. To bring a registered domain under Pulumi, import its DomainVerification instead (\`pulumi import service:index:DomainVerification <name> <hostname>\`) and declare it with ${spellProperty("adopt")} set to true.`,
  );
}

export function domainCredentialsChangedError(domainName: string, organization: string): LifecycleError {
  return new LifecycleError(
    "credentials_changed",
    `The new credentials cannot see the registered domain ${domainName}, which belongs to organization ${organization}. Switching to them would leave it registered there with nothing managing it; nothing was changed. Keep credentials of ${organization} for this Domain, or remove it from the program and run \`pulumi up\` with the old credentials first.`,
  );
}
