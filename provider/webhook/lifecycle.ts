import { randomUUID } from "node:crypto";
import { MAX_ACTIVE_WEBHOOKS } from "../api/limits";
import { canonicalFilters, sameFilters, toWireFilters } from "../api/rules";
import type { Webhook } from "../api/schemas";
import { isApiVersion } from "../api/versions";
import type { ServiceClient } from "../client/client";
import { contextKey, processContext } from "../context/process";
import { ConflictError, InvalidRequestError, NotFoundError } from "../errors/api";
import { LifecycleError, PendingCreateError } from "../errors/lifecycle";
import { AmbiguousRequestError } from "../errors/transport";
import { clientFor, credentialKey } from "../runtime/clients";
import { withCommonMembers } from "../runtime/common-members";
import { KeyedLock } from "../runtime/keyed-lock";
import { activeWebhooks, forgetWebhooks, registeredDomains } from "../runtime/listings";
import { confirmGone, credentialsHash, recordedCredentials, sameCredentials } from "../runtime/ownership";
import { hashSecret } from "../runtime/secret-hash";
import { claim, claimedUuids, clearPending, hasPending, isClaimed, notePending } from "./claims";
import {
  adoptClaimedError,
  adoptMismatchError,
  adoptNotFoundError,
  credentialsChangedError,
  describeExisting,
  domainNotRegisteredError,
  identicalPendingError,
  inputRefusedError,
  pendingMessage,
  quotaError,
  reconcileConflictMessage,
} from "./messages";
import { awaitCandidates, candidates, reconcileWindowMs } from "./reconcile";
import {
  identityOf,
  isPending,
  type WebhookIdentity,
  type WebhookInputs,
  type WebhookOutputs,
  WebhookState,
  webhookInputsSchema,
} from "./schema";

/**
 * What `pulumi up`, `refresh` and `destroy` run for a Webhook. A create is never re-sent: when its answer
 * is lost, the active listing shows whether it landed, and if it still cannot tell, the resource is kept
 * in state as pending so that the next run settles it instead of creating a second webhook.
 */
type Props = Record<string, unknown>;

const CREATE_LOCK = contextKey("webhook create lock", () => new KeyedLock());

function parseInputs(props: Props): WebhookInputs {
  return webhookInputsSchema(isApiVersion(props.apiVersion) ? props.apiVersion : "2.0").parse(props);
}

function outputsFor(hook: Webhook, inputs: WebhookInputs, client: ServiceClient): WebhookOutputs {
  return withCommonMembers<WebhookOutputs>(
    {
      webhookUuid: hook.webhookUuid,
      endpoint: hook.endpoint,
      channel: hook.channel,
      filters: toWireFilters(canonicalFilters(hook.filters)),
      owner: hook.owner,
      createTime: hook.createTime?.display,
      apiVersion: inputs.apiVersion,
      secretKeyHash: hashSecret(inputs.secretKey),
      credentialsHash: credentialsHash(client),
      ...(inputs.adoptWebhookUuid ? { adoptWebhookUuid: inputs.adoptWebhookUuid } : {}),
    },
    inputs,
  );
}

/** Serializes creates and reconciliations of indistinguishable webhooks of one organization. */
function exclusively<T>(
  client: ServiceClient,
  identity: WebhookIdentity,
  task: () => Promise<T>,
): Promise<T> {
  const key = `${credentialKey(client)}\u0000${JSON.stringify(identity)}`;
  return processContext().get(CREATE_LOCK).run(key, task);
}

function owned(hook: Webhook, inputs: WebhookInputs, client: ServiceClient) {
  claim(hook.webhookUuid);
  clearPending(identityOf(inputs));
  return { id: hook.webhookUuid, outs: outputsFor(hook, inputs, client) };
}

async function adopt(inputs: WebhookInputs & { adoptWebhookUuid: string }) {
  const client = clientFor(inputs);
  const uuid = inputs.adoptWebhookUuid;
  const hook = (await activeWebhooks(client, { fresh: true })).find((w) => w.webhookUuid === uuid);
  if (!hook) throw adoptNotFoundError(uuid);
  if (isClaimed(uuid)) throw adoptClaimedError(uuid);
  const problems = [
    hook.endpoint !== inputs.endpoint ? `endpoint is ${hook.endpoint}, not ${inputs.endpoint}` : undefined,
    hook.channel !== inputs.channel ? `channel is ${hook.channel}, not ${inputs.channel}` : undefined,
    !sameFilters(hook.filters, inputs.filters) ? `filters are ${JSON.stringify(hook.filters)}` : undefined,
  ].filter((p): p is string => p !== undefined);
  if (problems.length > 0) throw adoptMismatchError(uuid, problems);
  return owned(hook, inputs, client);
}

interface Attempt {
  /** The placeholder id of a resource that is already pending. */
  readonly pendingId?: string | undefined;
  /** When the earliest create with an unknown outcome was sent (service clock, ISO). */
  readonly pendingSince?: string | undefined;
  readonly claimedElsewhere?: readonly string[] | undefined;
}

/**
 * Sends the create once. An ambiguous answer is settled by re-listing; if the listing cannot settle it,
 * the resource goes pending (PendingCreateError), keeping the earliest attempt time, so that a webhook
 * from either attempt is recognised later.
 */
async function createOnce(client: ServiceClient, inputs: WebhookInputs, provider: unknown, prior: Attempt) {
  const identity = identityOf(inputs);
  const sentAtLocal = processContext().clock.now();
  try {
    const hook = await client.createWebhook({
      endpoint: { type: "url", value: inputs.endpoint },
      secret_key: inputs.secretKey,
      channel: inputs.channel,
      filters: inputs.filters,
    });
    return owned(hook, inputs, client);
  } catch (error) {
    if (error instanceof ConflictError) {
      throw quotaError(identity, await activeWebhooks(client, { fresh: true }), MAX_ACTIVE_WEBHOOKS);
    }
    if (error instanceof InvalidRequestError) throw await refusal(client, identity, error);
    if (!(error instanceof AmbiguousRequestError)) throw error;
    const exclude = [...(prior.claimedElsewhere ?? [])];
    const windowMs = reconcileWindowMs(error.status !== undefined);
    const { found, since } = await awaitCandidates(
      {
        client,
        identity,
        sentAtLocal,
        since: prior.pendingSince === undefined ? undefined : Date.parse(prior.pendingSince),
        exclude,
      },
      windowMs,
    );
    if (found?.length === 1) return owned(found[0]!, inputs, client);
    notePending(identity);
    const pendingSince = prior.pendingSince ?? new Date(since).toISOString();
    const conflict = found !== undefined && found.length > 1;
    throw new PendingCreateError(
      conflict
        ? reconcileConflictMessage(identity, pendingSince, found)
        : pendingMessage(identity, error.message, windowMs / 1000),
      prior.pendingId ?? `pending-${randomUUID()}`,
      pendingState(inputs, client, provider, pendingSince, [...exclude, ...claimedUuids()]),
      { cause: error, code: conflict ? "reconcile_conflict" : "outcome_unknown" },
    );
  } finally {
    forgetWebhooks(client);
  }
}

/** The state of a pending webhook: its configuration, when the create was sent, and `__provider`. */
function pendingState(
  inputs: WebhookInputs,
  client: ServiceClient,
  provider: unknown,
  pendingSince: string,
  claimedElsewhere: readonly string[],
): Props {
  return {
    ...withCommonMembers(
      {
        endpoint: inputs.endpoint,
        channel: inputs.channel,
        filters: inputs.filters,
        apiVersion: inputs.apiVersion,
        secretKeyHash: hashSecret(inputs.secretKey),
        credentialsHash: credentialsHash(client),
        pendingSince,
        claimedElsewhere: [...new Set(claimedElsewhere)],
        ...(inputs.adoptWebhookUuid ? { adoptWebhookUuid: inputs.adoptWebhookUuid } : {}),
      },
      inputs,
    ),
    // The engine keeps these properties as the resource's state; later calls need the provider in it.
    __provider: provider,
  };
}

/** A 400 (403 on v1.4) to a create: most often an endpoint host that is not a registered domain. */
async function refusal(client: ServiceClient, identity: WebhookIdentity, error: InvalidRequestError) {
  const host = new URL(identity.endpoint).hostname;
  const domains = await registeredDomains(client, { fresh: true }).catch(() => undefined);
  if (domains && !domains.some((d) => d.domainName === host)) {
    return domainNotRegisteredError(identity, host, domains);
  }
  return inputRefusedError(identity, error.message, error);
}

/**
 * Creates the webhook, or adopts the one named by adoptWebhookUuid. Creates of webhooks the service could
 * not tell apart run one at a time, and none starts while such a create is pending.
 */
export async function create(props: Props): Promise<{ id: string; outs: WebhookOutputs }> {
  const inputs = parseInputs(props);
  if (inputs.adoptWebhookUuid !== undefined) {
    return adopt({ ...inputs, adoptWebhookUuid: inputs.adoptWebhookUuid });
  }
  const client = clientFor(inputs);
  const identity = identityOf(inputs);
  return exclusively(client, identity, async () => {
    if (hasPending(identity)) throw identicalPendingError(identity);
    return createOnce(client, inputs, props.__provider, {});
  });
}

/** Settles a pending webhook: adopts the one that appeared, or creates it if none did. */
async function settle(id: string, old: WebhookState, news: Props): Promise<{ outs: WebhookOutputs }> {
  const inputs = parseInputs(news);
  const client = clientFor(inputs);
  const identity = identityOf(old);
  return exclusively(client, identity, async () => {
    const exclude = old.claimedElsewhere ?? [];
    const found = await candidates({ client, identity, since: Date.parse(old.pendingSince!), exclude });
    if (found.length === 1) return { outs: owned(found[0]!, inputs, client).outs };
    const attempt = { pendingId: id, pendingSince: old.pendingSince, claimedElsewhere: exclude };
    if (found.length > 1) {
      throw new PendingCreateError(
        reconcileConflictMessage(identity, old.pendingSince!, found),
        id,
        pendingState(inputs, client, news.__provider, old.pendingSince!, [...exclude, ...claimedUuids()]),
        { code: "reconcile_conflict" },
      );
    }
    return { outs: (await createOnce(client, inputs, news.__provider, attempt)).outs };
  });
}

/**
 * Nothing about the webhook itself changes in place. A pending webhook is settled. When the credentials
 * changed, one call checks that the new ones still see the webhook, so that the switch cannot orphan it.
 */
export async function update(id: string, olds: Props, news: Props): Promise<{ outs: WebhookOutputs }> {
  const old = WebhookState.parse(olds);
  if (isPending(old)) return settle(id, old, news);
  const current = old as WebhookOutputs;
  const client = clientFor({ ...current, ...pickCommon(news) });
  if (sameCredentials(client, current.credentialsHash) !== true) {
    try {
      await client.getWebhook(current.webhookUuid);
    } catch (error) {
      if (error instanceof NotFoundError) {
        throw credentialsChangedError(current.webhookUuid, identityOf(current), current.owner.organization);
      }
      throw error;
    }
  }
  return {
    outs: {
      ...withCommonMembers(current, news),
      credentialsHash: recordedCredentials(client, current.credentialsHash),
    },
  };
}

const pickCommon = (news: Props) => ({
  connection: news.connection as WebhookInputs["connection"],
  acceptLanguage: news.acceptLanguage as WebhookInputs["acceptLanguage"],
});

/** The inputs a refreshed state implies (everything but what the service assigns and the hashes). */
function inputsOf(state: WebhookState): Props {
  const {
    webhookUuid: _id,
    owner: _owner,
    createTime: _time,
    secretKeyHash: _hash,
    credentialsHash: _credentials,
    pendingSince: _since,
    claimedElsewhere: _claimed,
    ...inputs
  } = state;
  return inputs;
}

/**
 * Refresh. The webhook is there while it is in the active listing (one listing serves every webhook of
 * the credentials). One that is missing is reported gone only when the credentials in use could see it.
 * A pending webhook is settled if exactly one candidate appeared; otherwise it stays pending.
 */
export async function read(id: string, props: Props) {
  const old = WebhookState.parse(props);
  const client = clientFor(old);
  if (isPending(old)) {
    const search = {
      client,
      identity: identityOf(old),
      since: Date.parse(old.pendingSince!),
      exclude: old.claimedElsewhere ?? [],
    };
    const found = await candidates(search);
    if (found.length !== 1) {
      notePending(search.identity);
      return { id, props: old, inputs: inputsOf(old) };
    }
    claim(found[0]!.webhookUuid);
    clearPending(search.identity);
    const outs = refreshed(old, found[0]!, client);
    return { id: outs.webhookUuid, props: outs, inputs: inputsOf(outs) };
  }
  const uuid = old.webhookUuid ?? id;
  const hook = (await activeWebhooks(client)).find((w) => w.webhookUuid === uuid);
  if (!hook) {
    await confirmGone(client, ownership(old), describeExisting(uuid, identityOf(old)), "pulumi refresh");
    return {};
  }
  claim(uuid);
  const outs = refreshed(old, hook, client);
  return { id: uuid, props: outs, inputs: inputsOf(outs) };
}

function refreshed(old: WebhookState, hook: Webhook, client: ServiceClient): WebhookOutputs {
  const { pendingSince: _since, claimedElsewhere: _claimed, ...rest } = old;
  return {
    ...rest,
    webhookUuid: hook.webhookUuid,
    endpoint: hook.endpoint,
    channel: hook.channel,
    filters: toWireFilters(canonicalFilters(hook.filters)),
    owner: hook.owner,
    createTime: hook.createTime?.display ?? old.createTime,
    // These credentials see the webhook.
    credentialsHash: recordedCredentials(client, old.credentialsHash),
  };
}

const ownership = (state: WebhookState) => ({
  organization: state.owner?.organization,
  credentialsHash: state.credentialsHash,
});

/**
 * Deactivates. A pending webhook deactivates the one its create left behind, if any. A webhook the
 * service does not show counts as deleted only when the credentials in use could see it.
 */
export async function remove(id: string, props: Props): Promise<void> {
  const old = WebhookState.parse(props);
  const client = clientFor(old);
  try {
    if (isPending(old)) return await removePending(old, client);
    const uuid = old.webhookUuid ?? id;
    const subject = describeExisting(uuid, identityOf(old));
    try {
      await client.deactivateWebhook(uuid);
    } catch (error) {
      if (error instanceof NotFoundError || error instanceof InvalidRequestError) {
        if ((await activeWebhooks(client, { fresh: true })).some((w) => w.webhookUuid === uuid)) throw error;
        await confirmGone(client, ownership(old), subject, "pulumi destroy");
        return;
      }
      if (!(error instanceof AmbiguousRequestError)) throw error;
      if ((await activeWebhooks(client, { fresh: true })).some((w) => w.webhookUuid === uuid)) {
        await client.deactivateWebhook(uuid);
      }
    }
  } finally {
    forgetWebhooks(client);
  }
}

async function removePending(old: WebhookState, client: ServiceClient): Promise<void> {
  const identity = identityOf(old);
  await exclusively(client, identity, async () => {
    const since = Date.parse(old.pendingSince!);
    const found = await candidates({ client, identity, since, exclude: old.claimedElsewhere ?? [] });
    if (found.length > 1) {
      throw new LifecycleError(
        "reconcile_conflict",
        reconcileConflictMessage(identity, old.pendingSince!, found),
      );
    }
    if (found[0]) await client.deactivateWebhook(found[0].webhookUuid);
    clearPending(identity);
  });
}
