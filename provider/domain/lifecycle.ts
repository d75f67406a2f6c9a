/**
 * What `pulumi up`, `refresh` and `destroy` run for the domain steps: DomainRegistration's
 * start_registration, and DomainVerification's look at the verification file and finish_registration.
 * Here too: the one place that reads the client's wire names of a domain, and the one question a preview
 * asks the service.
 */

import { resolveHost } from "../../contract/domains/hostname-overrides";
import { verificationKey } from "../../contract/domains/verification";
import { checkVerificationFile, type Observation } from "../../contract/domains/verification-check";
import type { ServiceClient } from "../client/client";
import { cancelRequested, whenCancelled } from "../context/engine-cancel";
import { contextKey, processContext, rememberSecret } from "../context/process";
import { ConflictError, InvalidRequestError, RateLimitError } from "../errors/api";
import { AmbiguousRequestError } from "../errors/transport";
import { clientFor, hostOverrides } from "../lifecycle/clients";
import { withConnection } from "../lifecycle/connection";
import { recordedCredentials, sameCredentials } from "../lifecycle/credentials-hash";
import { forgetDomains } from "../lifecycle/listings";
import type { ResourceProps } from "../lifecycle/methods";
import { confirmGone } from "../lifecycle/ownership";
import { type Refreshed, refreshAnswer } from "../lifecycle/refresh";
import type { Settings } from "../settings/value";
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
  registrationImportError,
  startUnconfirmedError,
} from "./messages";
import { type DomainRecord, domainRecord, registeredDomains } from "./registered-domains";
import {
  noteRegisteredAtStart,
  RegistrationInputs,
  RegistrationOutputs,
  sharedTopic,
  tell,
  VerificationInputs,
  VerificationOutputs,
  wasRegisteredAtStart,
} from "./resource";

/** Where and how long the Domain's GET of its verification URL may go. */
export interface VerificationFetchOptions {
  /** Hostname to origin, for hostnames that only exist locally (service:hostOverrides). */
  readonly hosts?: Readonly<Record<string, string>>;
  /** How long the GET may take before the URL counts as unreachable; 5 s when omitted. */
  readonly timeoutMs?: number;
}

/**
 * The Domain's look at its verification URL from this process, before it calls finish: the service's
 * check (contract/domains/verification-check.ts) over fetch, sent to the stand-in origin when `hosts`
 * has one for the hostname.
 */
export function fetchVerificationFile(
  url: string,
  registerToken: string,
  options: VerificationFetchOptions = {},
): Promise<Observation> {
  return checkVerificationFile(url, registerToken, async (target, init) => {
    try {
      return await fetch(resolveHost(target, options.hosts ?? {}), {
        ...init,
        signal: AbortSignal.timeout(options.timeoutMs ?? 5_000),
      });
    } catch (error) {
      throw withCause(error);
    }
  });
}

/**
 * fetch rejects with only "fetch failed" and keeps the network's reason (a refused connection, an unknown
 * host) in `cause`: the message a user reads carries both.
 */
function withCause(error: unknown): unknown {
  if (!(error instanceof Error) || !(error.cause instanceof Error)) return error;
  return new Error(`${error.message}: ${error.cause.message}`, { cause: error.cause });
}

/* DomainRegistration (start_registration). */

/**
 * start_registration: a new verifier and register token, valid until expiresAt. The answer's wire names
 * map onto the registration's outputs here, its one translation. A hostname the organization had already
 * registered before this start is noted for the verification that follows in this run: this stack did
 * not register it.
 */
async function createRegistration(
  settings: Settings,
  props: ResourceProps,
): Promise<{ id: string; outs: RegistrationOutputs }> {
  const inputs = RegistrationInputs.parse(props);
  const client = clientFor(inputs, settings);
  // The check just before listed the domains in this process: the listing is usually cached.
  const before = (await registeredDomains(client)).find((d) => d.domainName === inputs.domainName);
  let start: Awaited<ReturnType<ReturnType<typeof clientFor>["domains"]["startRegistration"]>>;
  try {
    start = await client.domains.startRegistration({ domain_name: inputs.domainName });
  } catch (error) {
    if (error instanceof AmbiguousRequestError) throw startUnconfirmedError(inputs.domainName, error);
    throw error;
  }
  if (before) noteRegisteredAtStart(start.verifier);
  const outs: RegistrationOutputs = withConnection(
    {
      domainName: start.domain_name,
      url: start.url,
      verifier: start.verifier,
      // Derived from the URL the service returned, so a publisher writes exactly where it will look.
      key: verificationKey(start.url),
      registerToken: start.register_token,
      expiresAt: start.expires_at,
    },
    inputs,
  );
  return { id: start.verifier, outs };
}

/**
 * A registration whose link expired before the domain was registered is reported gone, so that the next
 * `pulumi up` starts a new one instead of wedging on a dead verifier. Once the domain is registered the
 * registration stays, expired or not.
 */
async function readRegistration(
  settings: Settings,
  id: string,
  props: ResourceProps,
): Promise<Refreshed | Record<string, never>> {
  // With no state, this is `pulumi import`, which a registration cannot support.
  if (props.domainName === undefined) throw registrationImportError(id);
  const old = RegistrationOutputs.parse(props);
  const client = clientFor(old, settings);
  const registered = (await registeredDomains(client)).some((d) => d.domainName === old.domainName);
  if (!registered && Date.parse(old.expiresAt) <= client.serverNow()) return {};
  return refreshAnswer(id, props, old, () => withConnection({ domainName: old.domainName }, old));
}

async function updateRegistration(
  _settings: Settings,
  _id: string,
  olds: ResourceProps,
  news: ResourceProps,
) {
  return { outs: withConnection(RegistrationOutputs.parse(olds), news) };
}

/** A registration has nothing to remove on the service: an unused link expires by itself. */
async function removeRegistration(_settings: Settings, _id: string, _props: ResourceProps): Promise<void> {}

/** What `pulumi up`, `refresh` and `destroy` run for a DomainVerification (finish_registration). */

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
 * the engine cancels; a hostname the provider's `settings` override is fetched from its stand-in.
 */
async function waitUntilServed(
  settings: Settings,
  url: string,
  token: string,
  deadline: number,
): Promise<Observation> {
  const { clock } = processContext();
  const hosts = hostOverrides(settings);
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
  return withConnection(
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

async function adopt(settings: Settings, inputs: VerificationInputs) {
  const client = clientFor(inputs, settings);
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
async function createVerification(
  settings: Settings,
  props: ResourceProps,
): Promise<{ id: string; outs: VerificationOutputs }> {
  const inputs = VerificationInputs.parse(props);
  if (inputs.adopt) return adopt(settings, inputs);
  const { domainName, verifier, url, registerToken, expiresAt } = inputs as Required<VerificationInputs>;
  rememberSecret(registerToken);
  const client = clientFor(inputs, settings);
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
    settings,
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
async function importDomain(settings: Settings, idOrName: string) {
  const client = clientFor({}, settings);
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
async function readVerification(
  settings: Settings,
  id: string,
  props: ResourceProps,
): Promise<Refreshed | Record<string, never>> {
  if (props.domainName === undefined) return importDomain(settings, id);
  const old = VerificationOutputs.parse(props);
  const client = clientFor(old, settings);
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
async function updateVerification(settings: Settings, id: string, olds: ResourceProps, news: ResourceProps) {
  const old = VerificationOutputs.parse(olds);
  const client = clientFor(
    {
      connection: news.connection as VerificationOutputs["connection"],
      acceptLanguage: news.acceptLanguage as VerificationOutputs["acceptLanguage"],
    },
    settings,
  );
  if (sameCredentials(client.options, old.credentialsHash) !== true) {
    const visible = (await registeredDomains(client, { fresh: true })).some((d) => d.domainUuid === id);
    if (!visible) throw domainCredentialsChangedError(old.domainName, old.organization ?? "its organization");
  }
  const timeout = (news.timeout as number | undefined) ?? old.timeout;
  return {
    outs: withConnection(
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
async function removeVerification(settings: Settings, id: string, props: ResourceProps): Promise<void> {
  if (processContext().get(CONFIRMED_HERE).has(id)) return;
  const old = VerificationOutputs.parse(props);
  if (old.status === "adopted") {
    tell(leftRegisteredNotice(old.domainName, id));
    return;
  }
  const client = clientFor(old, settings);
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

/** DomainRegistration's changes, as its declaration loads them. */
export const registration = {
  create: createRegistration,
  read: readRegistration,
  update: updateRegistration,
  remove: removeRegistration,
};

/** DomainVerification's changes, as its declaration loads them. */
export const verification = {
  create: createVerification,
  read: readVerification,
  update: updateVerification,
  remove: removeVerification,
};
