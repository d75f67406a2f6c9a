import type { Webhook } from "../api/schemas";
import { redact } from "../client/redact";
import { describeObservation, type Observation } from "../runtime/probe";

const NEXT_STEP_EXPIRED =
  "Run `pulumi refresh` (or `pulumi up --refresh`): the expired registration is then reported gone, and the next `pulumi up` starts a new one with a new verifier and publishes it.";

export function expiredMessage(domainName: string, expiresAt: string): string {
  return `The verification link for ${domainName} expired at ${expiresAt} before the domain was registered. ${NEXT_STEP_EXPIRED}`;
}

export function notServedMessage(
  domainName: string,
  url: string,
  seen: Observation,
  waitedSeconds: number,
): string {
  return redact(
    `Gave up on ${domainName} after ${Math.round(waitedSeconds)} s: ${url} must serve exactly the register token over HTTPS, with no redirect, but ${describeObservation(seen)}. ` +
      "finish_registration was not called, so no attempt was spent. Check that the publisher's resource exists, that " +
      "the CDN routes /service_url_registration/* to it without redirecting or caching, then run `pulumi up` again (raise `timeout` if it is slow to appear).",
  );
}

export function finishFailedMessage(domainName: string, serviceSaid: string): string {
  return redact(
    `The service could not verify ${domainName}: ${serviceSaid}. The file was visible from here, so the service may see ` +
      "another origin (DNS, a CDN cache or a redirect for its requests). Fix that and run `pulumi up` again; repeated " +
      `failures lead the service to answer 429 for a while. If the link has expired meanwhile: ${NEXT_STEP_EXPIRED}`,
  );
}

export function domainInUseMessage(domainName: string, hooks: readonly Webhook[]): string {
  const listed = hooks.map((w) => `  - ${w.webhookUuid}  ${w.endpoint}  channel=${w.channel}`);
  return redact(
    [
      `Cannot deactivate ${domainName}: active webhooks still target it${hooks.length ? ":" : "."}`,
      ...listed,
      "Delete or move those webhooks first. In one program, make each Webhook depend on the Domain (dependsOn)",
      "so that Pulumi deletes the webhooks before the domain.",
    ].join("\n"),
  );
}

export function notRegisteredForAdoptMessage(domainName: string): string {
  return `Cannot adopt ${domainName}: it is not registered to this organization. Remove adopt to verify it instead.`;
}
