import { describeObservation, type Observation } from "../../contract/domains/verification-check";
import { optionSetting, spellProperty } from "../context/program-language";
import { LifecycleError } from "../errors/lifecycle";
import type { WebhookRecord } from "../webhook/wire";

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

export function domainInUseError(
  domainName: string,
  hooks: readonly WebhookRecord[],
  cause: unknown,
): LifecycleError {
  const listed = hooks.map((w) => `  - ${w.webhookUuid}  ${w.endpoint}  channel=${w.channel}`);
  return new LifecycleError(
    "domain_in_use",
    [
      `Cannot deactivate ${domainName}: active webhooks still target it${hooks.length ? ":" : "."}`,
      ...listed,
      `Delete or move those webhooks first. In one program, give each Webhook ${optionSetting("dependsOn", ["domain"])} so that Pulumi deletes the webhooks before the domain.`,
    ].join("\n"),
    { cause },
  );
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
