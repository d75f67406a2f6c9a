import type { Domain } from "../api/schemas";
import { AmbiguousRequestError, ConflictError, InvalidRequestError, RateLimitError } from "../client/errors";
import { rememberSecret } from "../client/redact";
import { type CheckFailure, checkInputs } from "../runtime/check";
import { commonMembersChanged, withCommonMembers } from "../runtime/common-members";
import { clientFor } from "../runtime/credentials";
import { activeWebhooks, forgetDomains, registeredDomains } from "../runtime/listings";
import { type Observation, probe } from "../runtime/probe";
import { containsUnknown } from "../runtime/unknowns";
import {
  domainInUseMessage,
  expiredMessage,
  finishFailedMessage,
  notRegisteredForAdoptMessage,
  notServedMessage,
} from "./messages";
import { VERIFY_MEMBERS, VerificationInputs, VerificationOutputs } from "./schema";

type Props = Record<string, unknown>;

/** Polling starts quick and settles at this interval, so a file that appears is seen within it. */
const FIRST_POLL_MS = 200;
const MAX_POLL_MS = 750;

/**
 * Domains this provider process found already registered when asked to verify them. A replacement that
 * lands on the same domain_uuid must not then deactivate it while deleting the old resource.
 */
const confirmedHere = new Set<string>();

export async function check(_olds: Props, news: Props): Promise<{ inputs: Props; failures: CheckFailure[] }> {
  if (typeof news.registerToken === "string") rememberSecret(news.registerToken);
  const result = checkInputs(VerificationInputs, news);
  if (news.adopt !== true) {
    for (const key of VERIFY_MEMBERS) {
      if (news[key] === undefined)
        result.failures.push({ property: key, reason: "is required unless adopt is true" });
    }
  }
  return result;
}

const REPLACING = ["domainName", "adopt", "verifier"] as const;

export async function diff(_id: string, olds: Props, news: Props) {
  const old = VerificationOutputs.parse(olds);
  const replaces = REPLACING.filter(
    (key) => containsUnknown(news[key]) || (news[key] ?? old[key]) !== old[key],
  );
  const changes =
    replaces.length > 0 || commonMembersChanged(old, news) || (news.timeout ?? old.timeout) !== old.timeout;
  return { changes, replaces: [...replaces], deleteBeforeReplace: false };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls the URL, without calling the API, until it serves the token or the deadline passes. */
async function waitUntilServed(url: string, token: string, deadline: number): Promise<Observation> {
  let interval = FIRST_POLL_MS;
  for (;;) {
    const seen = await probe(url, token, Math.max(1_000, Math.min(5_000, deadline - Date.now())));
    if (seen.kind === "ok" || Date.now() + interval > deadline) return seen;
    await sleep(interval);
    interval = Math.min(MAX_POLL_MS, interval * 1.5);
  }
}

async function adopt(inputs: VerificationInputs) {
  const found = (await registeredDomains(clientFor(inputs), { fresh: true })).find(
    (d) => d.domainName === inputs.domainName,
  );
  if (!found) throw new Error(notRegisteredForAdoptMessage(inputs.domainName));
  const outs: VerificationOutputs = withCommonMembers(
    {
      domainUuid: found.domainUuid,
      domainName: found.domainName,
      status: "adopted",
      createTime: found.createTime?.display,
      adopt: true,
      timeout: inputs.timeout,
    },
    inputs,
  );
  return { id: found.domainUuid, outs };
}

/**
 * Waits until the file is served, then calls finish_registration once. It never retries a finish that
 * the service refused: repeated failures get the domain blocked.
 */
export async function create(props: Props): Promise<{ id: string; outs: VerificationOutputs }> {
  const inputs = VerificationInputs.parse(props);
  if (inputs.adopt) return adopt(inputs);
  const { domainName, verifier, url, registerToken, expiresAt } = inputs as Required<VerificationInputs>;
  rememberSecret(registerToken);
  const client = clientFor(inputs);
  const outputs = (domain: Pick<Domain, "domainUuid" | "domainName" | "createTime">): VerificationOutputs =>
    withCommonMembers(
      {
        domainUuid: domain.domainUuid,
        domainName: domain.domainName,
        status: "registered",
        createTime: domain.createTime?.display,
        adopt: false,
        verifier,
        url,
        expiresAt,
        timeout: inputs.timeout,
      },
      inputs,
    );
  // Already registered (a re-run, or a replacement of this resource): nothing to publish or finish. If a
  // replacement's old half is deleted in this run, it has this same domain_uuid and must stay registered.
  const existing = (await registeredDomains(client, { fresh: true })).find(
    (d) => d.domainName === domainName,
  );
  if (existing) {
    confirmedHere.add(existing.domainUuid);
    return { id: existing.domainUuid, outs: outputs(existing) };
  }
  const started = Date.now();
  const expiry = Date.parse(expiresAt);
  if (expiry <= started) throw new Error(expiredMessage(domainName, expiresAt));
  const seen = await waitUntilServed(url, registerToken, Math.min(started + inputs.timeout * 1000, expiry));
  if (seen.kind !== "ok") {
    if (Date.now() >= expiry) throw new Error(expiredMessage(domainName, expiresAt));
    throw new Error(notServedMessage(domainName, url, seen, (Date.now() - started) / 1000));
  }
  let domain: Domain;
  try {
    domain = await client.finishDomainRegistration(domainName, verifier);
  } catch (error) {
    if (error instanceof InvalidRequestError) {
      if (/expired/i.test(error.serviceMessage ?? "")) throw new Error(expiredMessage(domainName, expiresAt));
      throw new Error(finishFailedMessage(domainName, error.serviceMessage ?? error.message));
    }
    if (error instanceof RateLimitError) {
      throw new Error(
        `The service is refusing finish_registration for ${domainName} after repeated failures${error.retryAfterSeconds ? ` for another ${error.retryAfterSeconds} s` : ""}. Wait, then run \`pulumi up\` again.`,
      );
    }
    if (!(error instanceof AmbiguousRequestError)) throw error;
    // The finish may have landed: the listing says.
    const listed = (await registeredDomains(client, { fresh: true })).find(
      (d) => d.domainName === domainName,
    );
    if (!listed) throw error;
    domain = listed;
  } finally {
    forgetDomains(client);
  }
  return { id: domain.domainUuid, outs: outputs(domain) };
}

/** Refresh: registered while the organization's domain listing has it; otherwise gone. */
export async function read(id: string, props: Props) {
  const old = VerificationOutputs.parse(props);
  const found = (await registeredDomains(clientFor(old))).find((d) => d.domainUuid === id);
  if (!found) return {};
  const { domainUuid: _id, status: _status, createTime: _time, ...inputs } = old;
  return { id, props: { ...old, createTime: found.createTime?.display ?? old.createTime }, inputs };
}

export async function update(_id: string, olds: Props, news: Props) {
  const old = VerificationOutputs.parse(olds);
  return {
    outs: withCommonMembers({ ...old, timeout: (news.timeout as number | undefined) ?? old.timeout }, news),
  };
}

/**
 * Deactivates the domain. "Not registered" counts as done; a domain that active webhooks still target
 * fails with the list of those webhooks.
 */
export async function remove(id: string, props: Props): Promise<void> {
  if (confirmedHere.has(id)) return;
  const old = VerificationOutputs.parse(props);
  const client = clientFor(old);
  try {
    await client.deactivateDomain(id);
  } catch (error) {
    if (error instanceof InvalidRequestError) return;
    if (error instanceof ConflictError) {
      const users = (await activeWebhooks(client, { fresh: true })).filter(
        (w) => new URL(w.endpoint).hostname === old.domainName,
      );
      throw new Error(domainInUseMessage(old.domainName, users));
    }
    if (!(error instanceof AmbiguousRequestError)) throw error;
    if ((await registeredDomains(client, { fresh: true })).some((d) => d.domainUuid === id))
      await client.deactivateDomain(id);
  } finally {
    forgetDomains(client);
  }
}
