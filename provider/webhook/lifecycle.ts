import { canonicalFilters, sameFilters, toWireFilters } from "../api/rules";
import type { Webhook } from "../api/schemas";
import { isApiVersion } from "../api/versions";
import { AmbiguousRequestError, ConflictError, InvalidRequestError, NotFoundError } from "../client/errors";
import { rememberSecret } from "../client/redact";
import { type CheckFailure, checkInputs } from "../runtime/check";
import { commonMembersChanged, withCommonMembers } from "../runtime/common-members";
import { clientFor } from "../runtime/credentials";
import { activeWebhooks, forgetWebhooks } from "../runtime/listings";
import { hashSecret, secretMatches } from "../runtime/secret-hash";
import { containsUnknown, UNKNOWN } from "../runtime/unknowns";
import { adoptMismatchMessage, ambiguousCreateMessage, quotaMessage } from "./messages";
import { VERSIONED_MEMBERS, type WebhookInputs, WebhookOutputs, webhookInputsSchema } from "./schema";

type Props = Record<string, unknown>;

export async function check(_olds: Props, news: Props): Promise<{ inputs: Props; failures: CheckFailure[] }> {
  if (typeof news.secretKey === "string") rememberSecret(news.secretKey);
  const version = news.apiVersion === undefined ? "2.0" : news.apiVersion;
  if (version === UNKNOWN) {
    const rest = Object.fromEntries(
      Object.entries(news).filter(([k]) => !(VERSIONED_MEMBERS as readonly string[]).includes(k)),
    );
    const result = checkInputs(
      webhookInputsSchema("2.0").omit({ endpoint: true, secretKey: true, filters: true }),
      rest,
    );
    return { inputs: { ...news, ...result.inputs }, failures: result.failures };
  }
  return checkInputs(webhookInputsSchema(isApiVersion(version) ? version : "2.0"), news);
}

const REPLACING = ["endpoint", "channel", "apiVersion", "filters", "secretKey"] as const;

/** Field by field, without calling the API. Anything that defines the webhook replaces it. */
export async function diff(id: string, olds: Props, news: Props) {
  const old = WebhookOutputs.parse(olds);
  const replaces: string[] = [];
  for (const key of REPLACING) {
    const value = news[key];
    if (containsUnknown(value)) {
      replaces.push(key);
      continue;
    }
    const changed =
      key === "filters"
        ? !sameFilters(old.filters, value as WebhookInputs["filters"])
        : key === "secretKey"
          ? !secretMatches(String(value), old.secretKeyHash)
          : key === "channel"
            ? old.channel !== (value ?? "default")
            : key === "apiVersion"
              ? old.apiVersion !== (value ?? "2.0")
              : old[key] !== value;
    if (changed) replaces.push(key);
  }
  const adopt = news.adoptWebhookUuid;
  if (adopt !== undefined && adopt !== id) replaces.push("adoptWebhookUuid");
  return {
    changes: replaces.length > 0 || commonMembersChanged(old, news),
    replaces,
    deleteBeforeReplace: false,
  };
}

function outputsFor(hook: Webhook, inputs: WebhookInputs): WebhookOutputs {
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
      ...(inputs.adoptWebhookUuid ? { adoptWebhookUuid: inputs.adoptWebhookUuid } : {}),
    },
    inputs,
  );
}

const sameConfig = (hook: Webhook, inputs: WebhookInputs) =>
  hook.endpoint === inputs.endpoint &&
  hook.channel === inputs.channel &&
  sameFilters(hook.filters, inputs.filters);

async function adopt(inputs: WebhookInputs & { adoptWebhookUuid: string }) {
  const client = clientFor(inputs);
  const hook = (await activeWebhooks(client, { fresh: true })).find(
    (w) => w.webhookUuid === inputs.adoptWebhookUuid,
  );
  if (!hook) {
    throw new Error(
      `Cannot adopt webhook ${inputs.adoptWebhookUuid}: it is not an active webhook of this organization (deactivated webhooks cannot be reactivated).`,
    );
  }
  const problems = [
    hook.endpoint !== inputs.endpoint ? `endpoint is ${hook.endpoint}, not ${inputs.endpoint}` : undefined,
    hook.channel !== inputs.channel ? `channel is ${hook.channel}, not ${inputs.channel}` : undefined,
    !sameFilters(hook.filters, inputs.filters) ? `filters are ${JSON.stringify(hook.filters)}` : undefined,
  ].filter((p): p is string => p !== undefined);
  if (problems.length > 0) throw new Error(adoptMismatchMessage(hook.webhookUuid, problems));
  return { id: hook.webhookUuid, outs: outputsFor(hook, inputs) };
}

/**
 * Creates the webhook, or adopts the one named by adoptWebhookUuid. A create is never re-sent: if its
 * answer is lost, the active listing (compared with the one taken just before) shows whether it landed.
 */
export async function create(props: Props): Promise<{ id: string; outs: WebhookOutputs }> {
  const inputs = webhookInputsSchema(isApiVersion(props.apiVersion) ? props.apiVersion : "2.0").parse(props);
  if (inputs.adoptWebhookUuid !== undefined)
    return adopt({ ...inputs, adoptWebhookUuid: inputs.adoptWebhookUuid });
  const client = clientFor(inputs);
  const before = await activeWebhooks(client, { fresh: true });
  if (before.length >= 10) throw new Error(quotaMessage(before, inputs.endpoint));
  try {
    const hook = await client.createWebhook({
      endpoint: { type: "url", value: inputs.endpoint },
      secret_key: inputs.secretKey,
      channel: inputs.channel,
      filters: inputs.filters,
    });
    return { id: hook.webhookUuid, outs: outputsFor(hook, inputs) };
  } catch (error) {
    if (error instanceof ConflictError) {
      throw new Error(quotaMessage(await activeWebhooks(client, { fresh: true }), inputs.endpoint));
    }
    if (!(error instanceof AmbiguousRequestError)) throw error;
    const known = new Set(before.map((w) => w.webhookUuid));
    const landed = (await activeWebhooks(client, { fresh: true })).filter(
      (w) => !known.has(w.webhookUuid) && sameConfig(w, inputs),
    );
    const ours = landed.at(-1);
    if (!ours) throw new Error(ambiguousCreateMessage(inputs.endpoint));
    return { id: ours.webhookUuid, outs: outputsFor(ours, inputs) };
  } finally {
    forgetWebhooks(client);
  }
}

/** Refresh: the webhook is there while it is in the active listing; otherwise it is reported gone. */
export async function read(id: string, props: Props) {
  const old = WebhookOutputs.parse(props);
  const hook = (await activeWebhooks(clientFor(old))).find((w) => w.webhookUuid === id);
  if (!hook) return {};
  const outs: WebhookOutputs = {
    ...old,
    endpoint: hook.endpoint,
    channel: hook.channel,
    filters: toWireFilters(canonicalFilters(hook.filters)),
    owner: hook.owner,
    createTime: hook.createTime?.display ?? old.createTime,
  };
  const { webhookUuid: _id, owner: _owner, createTime: _time, secretKeyHash: _hash, ...inputs } = outs;
  return { id, props: outs, inputs };
}

/** Only credentials or language changed: nothing to do remotely. */
export async function update(_id: string, olds: Props, news: Props) {
  return { outs: withCommonMembers(WebhookOutputs.parse(olds), news) };
}

/** Deactivates. A webhook that is already inactive or unknown counts as deleted. */
export async function remove(id: string, props: Props): Promise<void> {
  const client = clientFor(WebhookOutputs.parse(props));
  try {
    await client.deactivateWebhook(id);
  } catch (error) {
    if (error instanceof NotFoundError || error instanceof InvalidRequestError) {
      if (!(await activeWebhooks(client, { fresh: true })).some((w) => w.webhookUuid === id)) return;
    }
    if (!(error instanceof AmbiguousRequestError)) throw error;
    if ((await activeWebhooks(client, { fresh: true })).some((w) => w.webhookUuid === id)) {
      await client.deactivateWebhook(id);
    }
  } finally {
    forgetWebhooks(client);
  }
}
