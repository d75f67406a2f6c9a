/** What `pulumi up`, `refresh` and `destroy` run for a DomainVerification (finish_registration). */

import type { Observation } from "../../contract/domains/verification-check";
import type { ServiceClient } from "../client/client";
import { cancelRequested, whenCancelled } from "../context/engine-cancel";
import { contextKey, processContext, rememberSecret } from "../context/process";
import { ConflictError, InvalidRequestError, RateLimitError } from "../errors/api";
import { AmbiguousRequestError } from "../errors/transport";
import { clientFor, hostOverrides } from "../lifecycle/clients";
import { withCommonMembers } from "../lifecycle/common-members";
import { recordedCredentials, sameCredentials } from "../lifecycle/credentials-hash";
import { forgetDomains } from "../lifecycle/listings";
import type { ResourceProps } from "../lifecycle/methods";
import { confirmGone } from "../lifecycle/ownership";
import { type Refreshed, refreshAnswer } from "../lifecycle/refresh";
import { activeWebhooks } from "../webhook/create";
import { isClaimed } from "../webhook/resource";
import {
  alreadyRegisteredNotice,
  cancelledWaitError,
  domainCredentialsChangedError,
  domainInUseError,
  expiredError,
  finishBlockedError,
  finishFailedError,
  finishUnconfirmedError,
  importDomainNotFoundError,
  leftRegisteredNotice,
  notRegisteredForAdoptError,
  notServedError,
} from "./messages";
import { tell } from "./notices";
import { VerificationInputs, VerificationOutputs } from "./schema";
import { sharedTopic, wasRegisteredAtStart } from "./sharing";
import { fetchVerificationFile } from "./verification-fetch";
import { type DomainRecord, domainRecord, registeredDomains } from "./wire";

/** Polling starts quick and settles at this interval, so a file that appears is seen within it. */
const FIRST_POLL_MS = 200;
const MAX_POLL_MS = 750;

/**
 * Domains this provider process found already registered when asked to verify them. A replacement that
 * lands on the same domain_uuid must not then deactivate it while deleting the old resource.
 */
const CONFIRMED_HERE = contextKey("domains confirmed by this process", () => new Set<string>());

/**
 * Polls the URL, without calling the API, until it serves the token, the deadline (local clock) passes or
 * the engine cancels.
 */
async function waitUntilServed(url: string, token: string, deadline: number): Promise<Observation> {
  const { clock } = processContext();
  const hosts = hostOverrides();
  for (let interval = FIRST_POLL_MS; ; interval = Math.min(MAX_POLL_MS, interval * 1.5)) {
    const left = deadline - clock.now();
    const seen = await fetchVerificationFile(url, token, {
      hosts,
      timeoutMs: Math.max(1_000, Math.min(5_000, left)),
    });
    const after = deadline - clock.now();
    if (seen.kind === "ok" || after <= 0 || cancelRequested()) return seen;
    await Promise.race([clock.sleep(Math.min(interval, after)), whenCancelled()]);
  }
}

/**
 * The state of a registered domain. `status` records who registered it: "registered" by this resource,
 * or "adopted" (this stack did not register it, whether it opted in with `adopt` or found the hostname
 * registered), which its delete leaves registered. A verification given a registration's members records
 * them whatever its status, so that the next diff compares them with what it is given.
 */
function outputsFor(
  domain: DomainRecord,
  inputs: VerificationInputs,
  client: ServiceClient,
  status: "registered" | "adopted",
): VerificationOutputs {
  return withCommonMembers(
    {
      domainUuid: domain.domainUuid,
      domainName: domain.domainName,
      status,
      createTime: domain.createTime?.display,
      adopt: inputs.adopt,
      ...(inputs.adopt ? {} : { verifier: inputs.verifier, url: inputs.url, expiresAt: inputs.expiresAt }),
      timeout: inputs.timeout,
      organization: domain.owner.organization || undefined,
      credentialsHash: recordedCredentials(client.options, undefined),
    },
    inputs,
  );
}

async function adopt(inputs: VerificationInputs) {
  const client = clientFor(inputs);
  const found = (await registeredDomains(client, { fresh: true })).find(
    (d) => d.domainName === inputs.domainName,
  );
  if (!found) throw notRegisteredForAdoptError(inputs.domainName);
  // A replacement of a verification of the same domain must not deactivate it while deleting the old one.
  processContext().get(CONFIRMED_HERE).add(found.domainUuid);
  return { id: found.domainUuid, outs: outputsFor(found, inputs, client, "adopted") };
}

/**
 * Waits until the file is served, then calls finish_registration once. It never retries a finish that
 * the service refused: repeated failures get the domain blocked.
 */
export async function create(props: ResourceProps): Promise<{ id: string; outs: VerificationOutputs }> {
  const inputs = VerificationInputs.parse(props);
  if (inputs.adopt) return adopt(inputs);
  const { domainName, verifier, url, registerToken, expiresAt } = inputs as Required<VerificationInputs>;
  rememberSecret(registerToken);
  const client = clientFor(inputs);
  // Already registered: nothing to publish or finish. If the hostname was registered before this run's
  // registration started, another stack or a person registered it, and this stack shares it (adopted).
  // Otherwise this stack did (a re-run, or a replacement of this resource). If a replacement's old half is
  // deleted in this run, it has this same domain_uuid and must stay registered.
  const existing = (await registeredDomains(client, { fresh: true })).find(
    (d) => d.domainName === domainName,
  );
  if (existing) {
    processContext().get(CONFIRMED_HERE).add(existing.domainUuid);
    const shared = wasRegisteredAtStart(verifier);
    if (shared) {
      const { domainUuid, owner } = existing;
      tell(
        alreadyRegisteredNotice(domainName, domainUuid, owner.organization, false),
        sharedTopic(domainName),
      );
    }
    return {
      id: existing.domainUuid,
      outs: outputsFor(existing, inputs, client, shared ? "adopted" : "registered"),
    };
  }
  const { clock } = processContext();
  const started = clock.now();
  // expiresAt is on the service's clock; the listing above has shown how far it is from this one.
  const linkDeadline = started + (Date.parse(expiresAt) - client.serverNow());
  if (linkDeadline <= started) throw expiredError(domainName, expiresAt);
  const seen = await waitUntilServed(
    url,
    registerToken,
    Math.min(started + inputs.timeout * 1000, linkDeadline),
  );
  if (seen.kind !== "ok") {
    if (cancelRequested()) throw cancelledWaitError(domainName, url, (clock.now() - started) / 1000);
    // When the link, not `timeout`, set the deadline, raising `timeout` cannot help: a new link can.
    if (clock.now() >= linkDeadline) throw expiredError(domainName, expiresAt);
    throw notServedError(domainName, url, seen, (clock.now() - started) / 1000);
  }
  const domain = await finish(client, domainName, verifier, expiresAt);
  return { id: domain.domainUuid, outs: outputsFor(domain, inputs, client, "registered") };
}

async function finish(client: ServiceClient, domainName: string, verifier: string, expiresAt: string) {
  try {
    return domainRecord(await client.domains.finishRegistration({ domain_name: domainName, verifier }));
  } catch (error) {
    if (error instanceof InvalidRequestError) {
      if (/expired/i.test(error.serviceMessage ?? "")) throw expiredError(domainName, expiresAt);
      throw finishFailedError(domainName, error.serviceMessage ?? error.message, error);
    }
    if (error instanceof RateLimitError) throw finishBlockedError(domainName, error.retryAfterSeconds, error);
    if (!(error instanceof AmbiguousRequestError)) throw error;
    // The finish may have landed: the listing says.
    const listed = (await registeredDomains(client, { fresh: true })).find(
      (d) => d.domainName === domainName,
    );
    if (!listed) throw finishUnconfirmedError(domainName, error);
    return listed;
  } finally {
    forgetDomains(client);
  }
}

/** How a registered domain is named in messages. */
const subject = (old: VerificationOutputs) => `the registered domain ${old.domainName} (${old.domainUuid})`;

/**
 * `pulumi import service:index:DomainVerification <name> <id>`, where the id is the hostname or the
 * domain_uuid of a registered domain: the domain, adopted, with the inputs that adopt it (`domainName` and
 * `adopt: true`). Its id in state is the domain_uuid, as for a verified one.
 */
async function importDomain(idOrName: string) {
  const client = clientFor({});
  const found = (await registeredDomains(client, { fresh: true })).find(
    (d) => d.domainUuid === idOrName || d.domainName === idOrName,
  );
  if (!found) throw importDomainNotFoundError(idOrName);
  const inputs = { domainName: found.domainName, adopt: true };
  const outs = outputsFor(found, VerificationInputs.parse(inputs), client, "adopted");
  return { id: found.domainUuid, props: outs, inputs };
}

/**
 * Refresh: registered while the organization's domain listing has it. One that is missing is reported
 * gone only when the credentials in use could see it. With no state at all, this is `pulumi import`.
 */
export async function read(id: string, props: ResourceProps): Promise<Refreshed | Record<string, never>> {
  if (props.domainName === undefined) return importDomain(id);
  const old = VerificationOutputs.parse(props);
  const client = clientFor(old);
  const found = (await registeredDomains(client)).find((d) => d.domainUuid === id);
  if (!found) {
    await confirmGone(client, old, subject(old), "pulumi refresh");
    return {};
  }
  const {
    domainUuid: _id,
    status: _status,
    createTime: _time,
    organization: _org,
    credentialsHash: _c,
    ...inputs
  } = old;
  const outs: VerificationOutputs = {
    ...old,
    createTime: found.createTime?.display ?? old.createTime,
    organization: found.owner.organization || old.organization,
    credentialsHash: recordedCredentials(client.options, old.credentialsHash),
  };
  return refreshAnswer(id, props, outs, () => inputs);
}

/**
 * `timeout` and credentials change in place. New credentials are checked with one listing call first,
 * so that the switch cannot leave the domain registered with nothing managing it.
 */
export async function update(id: string, olds: ResourceProps, news: ResourceProps) {
  const old = VerificationOutputs.parse(olds);
  const client = clientFor({
    connection: news.connection as VerificationOutputs["connection"],
    acceptLanguage: news.acceptLanguage as VerificationOutputs["acceptLanguage"],
  });
  if (sameCredentials(client.options, old.credentialsHash) !== true) {
    const visible = (await registeredDomains(client, { fresh: true })).some((d) => d.domainUuid === id);
    if (!visible) throw domainCredentialsChangedError(old.domainName, old.organization ?? "its organization");
  }
  const timeout = (news.timeout as number | undefined) ?? old.timeout;
  return {
    outs: withCommonMembers(
      { ...old, timeout, credentialsHash: recordedCredentials(client.options, old.credentialsHash) },
      news,
    ),
  };
}

/**
 * Deactivates a domain this stack registered. One it adopted (another stack or a person registered it)
 * stays registered, and the delete says so in one line. "Not registered" counts as done only when the
 * credentials in use could see it; a domain that active webhooks still target fails with the list of
 * those webhooks, each said to be in this stack's state or not.
 */
export async function remove(id: string, props: ResourceProps): Promise<void> {
  if (processContext().get(CONFIRMED_HERE).has(id)) return;
  const old = VerificationOutputs.parse(props);
  if (old.status === "adopted") {
    tell(leftRegisteredNotice(old.domainName, id));
    return;
  }
  const client = clientFor(old);
  try {
    await client.domains.deactivate(id);
  } catch (error) {
    if (error instanceof InvalidRequestError) {
      await confirmGone(client, old, subject(old), "pulumi destroy");
      return;
    }
    if (error instanceof ConflictError) {
      const users = (await activeWebhooks(client, { fresh: true }))
        .filter((w) => URL.canParse(w.endpoint) && new URL(w.endpoint).hostname === old.domainName)
        .map((webhook) => ({ webhook, inThisStack: isClaimed(webhook.webhookUuid) }));
      throw domainInUseError(old.domainName, id, users, error);
    }
    if (!(error instanceof AmbiguousRequestError)) throw error;
    if ((await registeredDomains(client, { fresh: true })).some((d) => d.domainUuid === id))
      await client.domains.deactivate(id);
  } finally {
    forgetDomains(client);
  }
}
